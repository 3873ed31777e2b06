import type { AdminStats } from '@homereport/contracts';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router-dom';
import { AccountPage } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { Icon } from '../../../components/Icon';
import { ListCard } from '../../../components/ListCard';
import { QueryState } from '../../../components/QueryState';
import { PageSpinner } from '../../../components/Spinner';
import { type Stat, StatGrid, StatsQuery } from '../../../components/StatCard';
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

/** The counters: the first four count the requests, the other four the users and their views. */
const STATS: Stat<AdminStats>[] = [
  { label: 'Total Requests', field: 'total', icon: 'file', tone: 'blue', testId: 'admin-stat-total' },
  { label: 'Pending', field: 'requested', icon: 'clock', tone: 'yellow', testId: 'admin-stat-pending' },
  { label: 'In Progress', field: 'inProgress', icon: 'trending', tone: 'blue', testId: 'admin-stat-in-progress' },
  { label: 'Completed', field: 'covered', icon: 'checkCircle', tone: 'green', testId: 'admin-stat-completed' },
  { label: 'Properties', field: 'properties', icon: 'home', tone: 'blue', testId: 'admin-stat-properties' },
  { label: 'Total Users', field: 'totalUsers', icon: 'users', tone: 'teal', testId: 'admin-stat-users' },
  { label: 'Verified Users', field: 'verifiedUsers', icon: 'shield', tone: 'green', testId: 'admin-stat-verified' },
  { label: 'Report Views', field: 'totalAccess', icon: 'eye', tone: 'grey', testId: 'admin-stat-views' },
];

/** System Status from GET /api/health: what is up and what is down, as the services report it. */
function SystemStatus() {
  const health = useSystemHealth();
  return (
    <Card icon="shield" title="System Status" testId="system-status">
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
    </Card>
  );
}

export function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const { user } = useSession();
  const dashboard = useAdminDashboard();
  const recent = useRecentRequests();

  return (
    <AccountPage
      eyebrow="Admin Dashboard"
      heading={
        <>
          <h1>Admin Dashboard</h1>
          <p className="muted" data-testid="admin-user-email">
            Signed in as {user?.email}
          </p>
        </>
      }
    >
      <StatsQuery query={dashboard} what="the statistics" testId="admin-stats-failed">
        {(stats) => (
          <>
            <h2 className="admin-group-title">Requests</h2>
            <StatGrid stats={stats} cards={STATS.slice(0, 4)} className="stat-grid stat-grid-4" />
            <h2 className="admin-group-title">Users and views</h2>
            <StatGrid stats={stats} cards={STATS.slice(4)} />
          </>
        )}
      </StatsQuery>

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
          <Card icon="sparkle" title="Quick Actions">
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
          </Card>
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
    </AccountPage>
  );
}
