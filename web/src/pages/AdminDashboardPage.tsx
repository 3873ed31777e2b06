import { AccountBar } from '../components/AccountBar';
import { ComingSoonNote } from '../components/ComingSoon';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  const { user } = useSession();
  return (
    <SiteLayout>
      <section className="section">
        <div className="container">
          <AccountBar eyebrow="Admin Dashboard">
            <h1>Admin Dashboard</h1>
            <p className="muted" data-testid="admin-user-email">
              Signed in as {user?.email}
            </p>
          </AccountBar>
          <div className="card placeholder-card">
            <h2>Requests, users, webhook keys and leads</h2>
            <ComingSoonNote />
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
