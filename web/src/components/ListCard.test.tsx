import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { ListCard, ListRow } from './ListCard';
import { QueryFailed, type QueryView } from './QueryState';

function view(state: Partial<QueryView<string[]>>): QueryView<string[]> {
  return { data: undefined, error: null, isFetching: false, refetch: vi.fn(), ...state };
}

/** A card of "things", with an empty line that links on. */
const THINGS = {
  testId: 'things',
  icon: 'file',
  title: 'Things',
  what: 'your things',
  empty: { text: 'No things yet.', link: { to: '/new', label: 'Add one' } },
} as const;

const render = (query: QueryView<string[]>) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <ListCard {...THINGS} query={query} footer={<p>Footer</p>}>
        {(items) => items.map((item) => <ListRow key={item} testId="thing" id={item} title={item} meta="m" side="s" />)}
      </ListCard>
    </MemoryRouter>,
  );

// Loading, failed, empty and rows are four different screens: a failed read never says "none".
describe('ListCard', () => {
  it('while loading says so, and shows neither rows nor the empty line', () => {
    const html = render(view({ isFetching: true }));
    expect(html).toContain('Loading your things…');
    expect(html).not.toContain('No things yet.');
    expect(html).not.toContain('list-rows');
  });

  it('a failed read says so under the card’s test id, with Retry', () => {
    const html = render(view({ error: new ApiError({ ok: false, status: 503, error: 'x', networkError: false }) }));
    expect(html).toContain('data-testid="things-failed"');
    expect(html).toContain('data-testid="things-failed-retry"');
    expect(html).not.toContain('No things yet.');
  });

  it('an empty list shows its line and link; a full one its rows; the footer both times', () => {
    const empty = render(view({ data: [] }));
    expect(empty).toContain('data-testid="things-empty"');
    expect(empty).toMatch(/<a [^>]*href="\/new"[^>]*>Add one<\/a>/);
    expect(empty).toContain('Footer');
    const full = render(view({ data: ['a', 'b'] }));
    expect(full.match(/data-testid="thing"/g)).toHaveLength(2);
    expect(full).toContain('data-id="b"');
    expect(full).not.toContain('things-empty');
    expect(full).toContain('Footer');
  });
});

describe('QueryFailed', () => {
  it('retries by asking the query again, and says it is while it does', () => {
    const refetch = vi.fn();
    const query = { data: undefined, error: new Error('x'), isFetching: true, refetch };
    const element = QueryFailed({ query, what: 'this report' }) as ReactElement<{ onRetry: () => void }>;
    element.props.onRetry();
    expect(refetch).toHaveBeenCalledOnce();
    expect(renderToStaticMarkup(element)).toContain('Retrying…');
  });
});
