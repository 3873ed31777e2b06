import { Link, isRouteErrorResponse, useNavigate, useRouteError } from 'react-router-dom';
import { Icon } from '../components/Icon';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

/** After a deploy, an old tab asks for chunks that no longer exist; a reload fetches the new ones. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

export function describeRouteError(error: unknown): { title: string; text: string } {
  if (isChunkLoadError(error)) {
    return {
      title: 'This Page Could Not Be Loaded',
      text: 'The site may have been updated since you opened it, or the connection dropped. Reload the page to get the latest version.',
    };
  }
  if (isRouteErrorResponse(error)) {
    return { title: 'Something Went Wrong', text: `The page answered ${error.status} ${error.statusText}.` };
  }
  return {
    title: 'Something Went Wrong',
    text: 'This page ran into an unexpected problem. Reload the page, or go back and try again.',
  };
}

function ErrorPanel() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { title, text } = describeRouteError(error);
  useDocumentTitle(title);
  if (error) console.error(error);
  return (
    <section className="section">
      <div className="container narrow">
        <div className="card placeholder-card" data-testid="route-error" role="alert">
          <span className="icon-badge icon-badge-lg">
            <Icon name="alert" size={28} />
          </span>
          <h1>{title}</h1>
          <p className="muted">{text}</p>
          <div className="actions center">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              Reload Page
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => navigate(-1)}>
              Go Back
            </button>
            <Link to="/" className="btn btn-ghost">
              Go Home
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}

/** The error boundary of one route: the site frame stays, the failed page becomes a readable message. */
export function RouteError() {
  return (
    <SiteLayout>
      <ErrorPanel />
    </SiteLayout>
  );
}

/** The last resort, outside the session: no header that needs it. */
export function RootError() {
  return (
    <main id="main" tabIndex={-1} className="site-main">
      <ErrorPanel />
    </main>
  );
}
