import { Icon } from './Icon';
import { LoadFailed } from './QueryState';

/** The text searched for and its setter: what useSearchState gives, or a page's own state. */
interface SearchText {
  search: string;
  setSearch: (value: string) => void;
}

/** The search field of a list: a magnifier and the field; `label` is its name and its placeholder. */
export function SearchBox({
  state,
  label,
  maxLength = 200,
  testId,
}: {
  state: SearchText;
  label: string;
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
        value={state.search}
        onChange={(event) => state.setSearch(event.target.value)}
        placeholder={label}
        maxLength={maxLength}
        data-testid={testId}
      />
    </label>
  );
}

/** A list's choices kept in the address: what useSearchState gives. */
interface ChoiceState<S> {
  state: S;
  change: (change: Partial<S>) => void;
}

/**
 * A labelled choice beside a list's search (sort, filter), kept in the address as `name`;
 * `hideLabel` leaves its name to screen readers.
 */
export function ChoiceControl<S, K extends keyof S & string>({
  params,
  name,
  label,
  hideLabel = false,
  options,
  testId,
}: {
  params: ChoiceState<S>;
  name: K;
  label: string;
  hideLabel?: boolean;
  options: readonly { value: S[K] & string; label: string }[];
  testId: string;
}) {
  return (
    <label className="list-control">
      <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
      <select
        value={String(params.state[name])}
        onChange={(event) => params.change({ [name]: event.target.value } as Partial<S>)}
        data-testid={testId}
      >
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
