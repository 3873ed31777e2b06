import type { UserStats } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { AccountBar } from '../../../components/AccountBar';
import { Icon } from '../../../components/Icon';
import { ListCard, ListRow } from '../../../components/ListCard';
import { QueryState } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { StatCard } from '../../../components/StatCard';
import { SavedReportsCard, WatchedZipsCard } from '../../../components/WatchLists';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatLongDate, nextCreditRefresh } from '../../../lib/dates';
import { useSession } from '../../../session/SessionProvider';
import { useAccessHistory, useUserStats } from '../api/userStats';
import { MyRequests } from '../components/MyRequests';
import { NOT_KNOWN, planName, recentActivity } from '../dashboardView';
import '../dashboard.css';

/** The three counters; without stats (still loading) they show a dash, never a zero that is not so. */
function StatGrid({ stats }: { stats: UserStats | null }) {
  return (
    <div className="stat-grid" aria-busy={stats === null}>
      <StatCard label="Available Credits" value={stats?.credits} icon="card" tone="blue" testId="stat-credits" />
      <StatCard label="Reports Viewed" value={stats?.totalAccess} icon="eye" tone="green" testId="stat-views" />
      <StatCard label="Unique Properties" value={stats?.uniqueReports} icon="home" tone="teal" testId="stat-unique" />
    </div>
  );
}

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  const statsQuery = useUserStats();
  const historyQuery = useAccessHistory();
  const stats = statsQuery.data;

  return (
    <SiteLayout>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow="Your dashboard">
            <h1 data-testid="dashboard-greeting">Welcome, {user?.email}</h1>
          </AccountBar>

          <QueryState
            query={statsQuery}
            what="your credits and views"
            testId="stats-failed"
            loading={<StatGrid stats={null} />}
          >
            {(loaded) => <StatGrid stats={loaded} />}
          </QueryState>

          <div className="quick-actions">
            <Link to="/properties" className="card quick-action">
              <span className="icon-badge">
                <Icon name="search" />
              </span>
              <span>
                <strong>Browse Reports</strong>
                <span className="muted">Open completed property reports</span>
              </span>
            </Link>
            <Link to="/request" className="card quick-action">
              <span className="icon-badge">
                <Icon name="file" />
              </span>
              <span>
                <strong>Request Coverage</strong>
                <span className="muted">Ask us to assess a property</span>
              </span>
            </Link>
            <Link to="/settings" className="card quick-action" data-testid="profile-settings">
              <span className="icon-badge">
                <Icon name="settings" />
              </span>
              <span>
                <strong>Profile Settings</strong>
                <span className="muted">Password, your data, deleting your account</span>
              </span>
            </Link>
          </div>

          <div className="dashboard-columns">
            <div className="dashboard-main">
              <ListCard
                testId="recent-activity"
                icon="clock"
                title="Recent Activity"
                query={historyQuery}
                what="your recent activity"
                empty={{ text: 'No reports viewed yet', link: { to: '/properties', label: 'Browse Reports' } }}
              >
                {(history) =>
                  recentActivity(history).map((entry) => (
                    <ListRow
                      key={entry.id}
                      testId="activity-entry"
                      title={entry.address}
                      meta={`Viewed on ${formatLongDate(entry.accessed_at)}`}
                      side={
                        <Link
                          to={`/report/${encodeURIComponent(entry.request_id)}`}
                          className="btn btn-secondary btn-sm"
                        >
                          View Report
                        </Link>
                      }
                    />
                  ))
                }
              </ListCard>
              <SavedReportsCard />
              <WatchedZipsCard />
              <MyRequests />
            </div>

            <aside className="card subscription-card" data-testid="subscription-status">
              <h2 className="card-title">
                <Icon name="sparkle" /> Subscription Status
              </h2>
              <dl className="subscription-facts">
                <div>
                  <dt>Current plan</dt>
                  <dd data-testid="subscription-plan">{stats ? planName(stats.subscription_status) : NOT_KNOWN}</dd>
                </div>
                <div>
                  <dt>Credits</dt>
                  <dd>10 free credits per month</dd>
                </div>
                <div>
                  <dt>Next credit refresh</dt>
                  <dd data-testid="next-refresh">
                    {stats ? formatLongDate(nextCreditRefresh(stats.next_refresh_at)) : NOT_KNOWN}
                  </dd>
                </div>
              </dl>
              <p className="muted subscription-note">
                Opening a report for the first time in a period uses one credit; reopening it is free.
              </p>
            </aside>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
