import type { AdminStats } from '@homereport/contracts';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router-dom';
import { AccountBar } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { Icon } from '../../../components/Icon';
import { ListCard } from '../../../components/ListCard';
import { QueryState } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { StatCard } from '../../../components/StatCard';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useSession } from '../../../session/SessionProvider';
import { systemStatus } from '../adminView';
import { useAdminDashboard, useRecentRequests } from '../api/adminDashboard';
import { useSystemHealth } from '../api/systemHealth';
import { RequestRow } from '../components/RequestRow';
import '../admin.css';

// The Leads feature owns this section; it loads only when an admin opens the dashboard.
const WebhookManagement = lazy(() =>
  import('../../leads/WebhookManagement').then((module) => ({ default: module.WebhookManagement })),
);

/** The counters; while they load (no stats yet) each shows a dash, never a zero. */
function AdminStatGrids({ stats }: { stats: AdminStats | undefined }) {
  return (
    <div aria-busy={stats === undefined}>
      <h2 className="admin-group-title">Requests</h2>
      <div className="stat-grid stat-grid-4">
        <StatCard label="Total Requests" value={stats?.total} icon="file" tone="blue" testId="admin-stat-total" />
        <StatCard label="Pending" value={stats?.requested} icon="clock" tone="yellow" testId="admin-stat-pending" />
        <StatCard
          label="In Progress"
          value={stats?.inProgress}
          icon="trending"
          tone="blue"
          testId="admin-stat-in-progress"
        />
        <StatCard
          label="Completed"
          value={stats?.covered}
          icon="checkCircle"
          tone="green"
          testId="admin-stat-completed"
        />
      </div>
      <h2 className="admin-group-title">Users and views</h2>
      <div className="stat-grid">
        <StatCard label="Properties" value={stats?.properties} icon="home" tone="blue" testId="admin-stat-properties" />
        <StatCard label="Total Users" value={stats?.totalUsers} icon="users" tone="teal" testId="admin-stat-users" />
        <StatCard
          label="Verified Users"
          value={stats?.verifiedUsers}
          icon="shield"
          tone="green"
          testId="admin-stat-verified"
        />
        <StatCard label="Report Views" value={stats?.totalAccess} icon="eye" tone="grey" testId="admin-stat-views" />
      </div>
    </div>
  );
}

/** System Status from GET /api/health: what is up and what is down, as the services report it. */
function SystemStatus() {
  const health = useSystemHealth();
  return (
    <section className="card" data-testid="system-status">
      <h2 className="card-title">
        <Icon name="shield" /> System Status
      </h2>
      <QueryState query={health} what="the system status" testId="system-status-failed">
        {(reply) => (
          <dl className="system-status" data-overall={reply.status}>
            {systemStatus(reply).map((row) => (
              <div key={row.key} data-testid={`system-status-${row.key}`} data-state={row.state}>
                <dt>{row.label}</dt>
                <dd className={`system-status-${row.state}`}>
                  <span className="status-dot" /> {row.text}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </QueryState>
    </section>
  );
}

export function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const { user } = useSession();
  const dashboard = useAdminDashboard();
  const recent = useRecentRequests();

  return (
    <SiteLayout>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow="Admin Dashboard">
            <h1>Admin Dashboard</h1>
            <p className="muted" data-testid="admin-user-email">
              Signed in as {user?.email}
            </p>
          </AccountBar>

          <QueryState
            query={dashboard}
            what="the statistics"
            testId="admin-stats-failed"
            loading={<AdminStatGrids stats={undefined} />}
          >
            {(stats) => <AdminStatGrids stats={stats} />}
          </QueryState>

          <div className="admin-columns">
            <ListCard
              testId="recent-requests"
              icon="file"
              title="Recent Requests"
              query={recent}
              what="the recent requests"
              empty={{ text: 'No recent requests' }}
              footer={
                <div className="actions">
                  <Link to="/admin/requests" className="btn btn-secondary btn-sm" data-testid="all-requests-link">
                    All Requests <Icon name="arrowRight" size={16} />
                  </Link>
                </div>
              }
            >
              {(requests) =>
                requests.map((request) => <RequestRow key={request.id} request={request} testId="recent-request" />)
              }
            </ListCard>

            <div className="admin-side">
              <section className="card">
                <h2 className="card-title">
                  <Icon name="sparkle" /> Quick Actions
                </h2>
                <div className="admin-quick-actions">
                  <Link to="/properties" className="btn btn-secondary btn-block">
                    <Icon name="home" size={18} /> View Properties
                  </Link>
                  <Link to="/request" className="btn btn-secondary btn-block">
                    <Icon name="file" size={18} /> New Request
                  </Link>
                  <Link to="/admin/zip-import" className="btn btn-secondary btn-block" data-testid="zip-import-link">
                    <Icon name="pin" size={18} /> Import ZIP Analyses
                  </Link>
                  <Link to="/admin/security" className="btn btn-secondary btn-block" data-testid="admin-security-link">
                    <Icon name="shield" size={18} /> Two-Step Sign-In
                  </Link>
                  <Link to="/help" className="btn btn-secondary btn-block">
                    <Icon name="help" size={18} /> Help Center
                  </Link>
                </div>
              </section>
              <SystemStatus />
            </div>
          </div>

          <div className="admin-webhooks">
            <ErrorBoundary
              fallback={
                <Alert kind="error" testId="webhook-section-error">
                  The Webhook Management section could not be loaded. Reload the page to try again.
                </Alert>
              }
            >
              <Suspense fallback={<PageSpinner label="Loading webhook management" />}>
                <WebhookManagement />
              </Suspense>
            </ErrorBoundary>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
