import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../components/Icon';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

export function NotFoundPage() {
  useDocumentTitle(
    'Page Not Found',
    'This HomeReport page does not exist. Find property reports, ZIP code analyses and help from the home page.',
  );
  const navigate = useNavigate();
  return (
    <SiteLayout>
      <section className="section">
        <div className="container narrow">
          <div className="card not-found">
            <p className="not-found-code" aria-hidden="true">
              404
            </p>
            <h1>Page Not Found</h1>
            <p className="muted">The page you're looking for doesn't exist. It might have been moved or deleted.</p>
            <div className="actions center">
              <Link to="/" className="btn btn-primary">
                <Icon name="home" size={18} /> Go Home
              </Link>
              <button type="button" className="btn btn-secondary" onClick={() => navigate(-1)}>
                <Icon name="arrowLeft" size={18} /> Go Back
              </button>
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
