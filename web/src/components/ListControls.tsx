import { Icon } from './Icon';
import { LoadFailed } from './QueryState';

/** The search field of a list: a magnifier, the field, and its name for screen readers. */
export function SearchBox({
  label,
  value,
  onChange,
  placeholder,
  maxLength,
  testId,
}: {
  /** The field's name, read out but not shown. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The API's limit for the text searched for. */
  maxLength?: number;
  testId: string;
}) {
  return (
    <label className="search-box">
      <Icon name="search" size={20} />
      <span className="sr-only">{label}</span>
      <input
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        maxLength={maxLength}
        data-testid={testId}
      />
    </label>
  );
}

/** A labelled choice beside a list's search (sort, filter); `hideLabel` leaves its name to screen readers. */
export function ChoiceControl<V extends string>({
  label,
  hideLabel = false,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  hideLabel?: boolean;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  testId: string;
}) {
  return (
    <label className="list-control">
      <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as V)} data-testid={testId}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What LoadMore needs of a TanStack infinite query. */
interface PagedQuery {
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/** Under a paged list: Load More while there is more, or why the next page failed, with Retry. */
export function LoadMore({
  query,
  what,
  label,
  testId,
  failedTestId,
}: {
  query: PagedQuery;
  /** Completes "We could not load …": "more reports". */
  what: string;
  /** The button's words: "Load More Reports". */
  label: string;
  testId: string;
  failedTestId: string;
}) {
  if (query.isFetchNextPageError) {
    return (
      <LoadFailed
        what={what}
        error={query.error}
        onRetry={() => void query.fetchNextPage()}
        retrying={query.isFetchingNextPage}
        testId={failedTestId}
      />
    );
  }
  if (!query.hasNextPage) return null;
  return (
    <div className="actions center load-more">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
        data-testid={testId}
      >
        {query.isFetchingNextPage ? 'Loading More...' : label}
      </button>
    </div>
  );
}
