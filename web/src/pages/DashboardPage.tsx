import { Link } from 'react-router-dom';
import { AccountBar } from '../components/AccountBar';
import { ComingSoonNote } from '../components/ComingSoon';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  return (
    <SiteLayout>
      <section className="section">
        <div className="container">
          <AccountBar eyebrow="Your dashboard">
            <h1 data-testid="dashboard-greeting">Welcome, {user?.email}</h1>
          </AccountBar>
          <div className="card placeholder-card">
            <h2>Your credits, recent activity and subscription</h2>
            <ComingSoonNote />
            <div className="actions center">
              <Link to="/properties" className="btn btn-primary">
                Browse Reports
              </Link>
              <Link to="/request" className="btn btn-secondary">
                Request Coverage
              </Link>
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
