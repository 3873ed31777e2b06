export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

/** Full-area spinner for pages waiting on the session or their first load. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner" data-testid="page-spinner">
      <Spinner label={label} />
    </div>
  );
}
