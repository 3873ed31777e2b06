import type { UserStats } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { AccountPage } from '../../../components/AccountBar';
import { Card, Fact } from '../../../components/Card';
import { Icon, type IconName } from '../../../components/Icon';
import { ListCard, ListRow } from '../../../components/ListCard';
import { type Stat, StatGrid, StatsQuery } from '../../../components/StatCard';
import { SavedReportsCard, WatchedZipsCard } from '../../../components/WatchLists';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatLongDate, nextCreditRefresh } from '../../../lib/dates';
import { useSession } from '../../../session/SessionProvider';
import { useAccessHistory, useUserStats } from '../api/userStats';
import { MyRequests } from '../components/MyRequests';
import { NOT_KNOWN, planName, recentActivity } from '../dashboardView';
import '../dashboard.css';

const COUNTERS: Stat<UserStats>[] = [
  { label: 'Available Credits', field: 'credits', icon: 'card', tone: 'blue', testId: 'stat-credits' },
  { label: 'Reports Viewed', field: 'totalAccess', icon: 'eye', tone: 'green', testId: 'stat-views' },
  { label: 'Unique Properties', field: 'uniqueReports', icon: 'home', tone: 'teal', testId: 'stat-unique' },
];

/** The ways on from the dashboard, as cards under the counters. */
const QUICK_ACTIONS: { to: string; icon: IconName; title: string; text: string; testId?: string }[] = [
  { to: '/properties', icon: 'search', title: 'Browse Reports', text: 'Open completed property reports' },
  { to: '/request', icon: 'file', title: 'Request Coverage', text: 'Ask us to assess a property' },
  {
    to: '/settings',
    icon: 'settings',
    title: 'Profile Settings',
    text: 'Password, your data, deleting your account',
    testId: 'profile-settings',
  },
];

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  const statsQuery = useUserStats();
  const historyQuery = useAccessHistory();
  const stats = statsQuery.data;

  return (
    <AccountPage eyebrow="Your dashboard" heading={<h1 data-testid="dashboard-greeting">Welcome, {user?.email}</h1>}>
      <StatsQuery query={statsQuery} what="your credits and views" testId="stats-failed">
        {(loaded) => <StatGrid stats={loaded} cards={COUNTERS} />}
      </StatsQuery>

      <div className="quick-actions">
        {QUICK_ACTIONS.map((action) => (
          <Link key={action.to} to={action.to} className="card quick-action" data-testid={action.testId}>
            <span className="icon-badge">
              <Icon name={action.icon} />
            </span>
            <span>
              <strong>{action.title}</strong>
              <span className="muted">{action.text}</span>
            </span>
          </Link>
        ))}
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
                    <Link to={`/report/${encodeURIComponent(entry.request_id)}`} className="btn btn-secondary btn-sm">
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

        <Card
          icon="sparkle"
          title="Subscription Status"
          testId="subscription-status"
          className="subscription-card"
          aside
        >
          <dl className="subscription-facts">
            <Fact label="Current plan" testId="subscription-plan">
              {stats ? planName(stats.subscription_status) : NOT_KNOWN}
            </Fact>
            <Fact label="Credits">10 free credits per month</Fact>
            <Fact label="Next credit refresh" testId="next-refresh">
              {stats ? formatLongDate(nextCreditRefresh(stats.next_refresh_at)) : NOT_KNOWN}
            </Fact>
          </dl>
          <p className="muted subscription-note">
            Opening a report for the first time in a period uses one credit; reopening it is free.
          </p>
        </Card>
      </div>
    </AccountPage>
  );
}
