import { Link } from 'react-router-dom';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user, logout } = useSession();
  return (
    <SiteLayout>
      <section className="section">
        <div className="container">
          <div className="page-heading-row">
            <div>
              <p className="eyebrow">Your dashboard</p>
              <h1 data-testid="dashboard-greeting">Welcome, {user?.email}</h1>
            </div>
            <button type="button" className="btn btn-secondary" onClick={() => void logout()} data-testid="sign-out">
              Sign Out
            </button>
          </div>
          <div className="card placeholder-card">
            <h2>Your credits, recent activity and subscription</h2>
            <p className="coming-soon">Coming soon: this page is being built.</p>
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
