import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const { user, logout } = useSession();
  return (
    <SiteLayout>
      <section className="section">
        <div className="container">
          <div className="page-heading-row">
            <div>
              <p className="eyebrow">Admin Dashboard</p>
              <h1>Admin Dashboard</h1>
              <p className="muted" data-testid="admin-user-email">
                Signed in as {user?.email}
              </p>
            </div>
            <button type="button" className="btn btn-secondary" onClick={() => void logout()} data-testid="sign-out">
              Sign Out
            </button>
          </div>
          <div className="card placeholder-card">
            <h2>Requests, users, webhook keys and leads</h2>
            <p className="coming-soon">Coming soon: this page is being built.</p>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
