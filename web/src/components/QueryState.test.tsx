import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { LoadFailed, QueryState, type QueryView, failureHint, isRefusal } from './QueryState';

const failure = (status: number, networkError = false, message = 'x') =>
  new ApiError({ ok: false, status, error: message, networkError });

function view<T>(state: Partial<QueryView<T>>): QueryView<T> {
  return { data: undefined, error: null, isFetching: false, refetch: vi.fn(), ...state };
}

function render<T>(query: QueryView<T>, isEmpty?: (data: T) => boolean) {
  return renderToStaticMarkup(
    <QueryState
      query={query}
      what="your requests"
      testId="mine-failed"
      isEmpty={isEmpty}
      empty={<p>Nothing requested yet</p>}
    >
      {(data) => <p>Data: {String(data)}</p>}
    </QueryState>,
  );
}

describe('QueryState', () => {
  it('says it is loading while the first answer is awaited', () => {
    const html = render(view<number>({ isFetching: true }));
    expect(html).toContain('Loading your requests…');
    expect(html).not.toContain('Data:');
    expect(html).not.toContain('Nothing requested yet');
  });

  it('says a failed load in words with Retry, and shows neither data nor the empty text', () => {
    const html = render(view<number>({ error: failure(503) }));
    expect(html).toContain('We could not load your requests.');
    expect(html).toContain('data-testid="mine-failed"');
    expect(html).toContain('data-testid="mine-failed-retry"');
    expect(html).toContain('>Retry<');
    expect(html).not.toContain('Data:');
    expect(html).not.toContain('Nothing requested yet');
    expect(html).not.toContain('Loading');
  });

  it('shows the empty text for an empty answer and the data otherwise', () => {
    expect(render(view<number[]>({ data: [] }), (d) => d.length === 0)).toContain('Nothing requested yet');
    expect(render(view<number>({ data: 0 }))).toContain('Data: 0');
  });

  it('keeps data already read when a later refetch fails', () => {
    const html = render(view<number>({ data: 7, error: failure(503) }));
    expect(html).toContain('Data: 7');
    expect(html).not.toContain('We could not load');
  });
});

describe('LoadFailed', () => {
  it('disables Retry while asking again', () => {
    const html = renderToStaticMarkup(
      <LoadFailed what="the leads" error={failure(0, true)} onRetry={() => {}} retrying />,
    );
    expect(html).toContain('We could not load the leads.');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Retrying…<\/button>/);
  });
});

describe('failureHint', () => {
  it('tells an outage, a throttle and a refusal apart', () => {
    expect(failureHint(failure(0, true))).toMatch(/connection/);
    expect(failureHint(failure(503))).toMatch(/not answering/);
    expect(failureHint(failure(429))).toMatch(/Too many requests/);
    expect(failureHint(failure(402, false, 'No credits left'))).toBe('No credits left');
    expect(failureHint(new TypeError('bug'))).toMatch(/Something went wrong/);
  });
});

describe('isRefusal', () => {
  it('is a 4xx the server meant, not an outage or a throttle', () => {
    expect(isRefusal(failure(402))).toBe(true);
    expect(isRefusal(failure(404))).toBe(true);
    expect(isRefusal(failure(429))).toBe(false);
    expect(isRefusal(failure(503))).toBe(false);
    expect(isRefusal(failure(0, true))).toBe(false);
    expect(isRefusal(new TypeError('bug'))).toBe(false);
  });
});
