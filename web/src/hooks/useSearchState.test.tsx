// @vitest-environment jsdom
import { act } from 'react';
import { type Root, createRoot } from 'react-dom/client';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Params,
  choiceParam,
  pageParam,
  readSearchState,
  textParam,
  useSearchState,
  withSearchState,
} from './useSearchState';

type ListState = { q: string; tier: '' | '1' | '2'; page: number };
const LIST: Params<ListState> = { q: textParam, tier: choiceParam(['', '1', '2'] as const, ''), page: pageParam };
const RESETS = ['page'] as const;

const read = (search: string) => readSearchState(LIST, new URLSearchParams(search));
const change = (search: string, to: Partial<ListState>) =>
  withSearchState(LIST, new URLSearchParams(search), to, RESETS).toString();

describe('a list state in the address', () => {
  it('reads each parameter', () => {
    expect(read('?q=boston&tier=1&page=3')).toEqual({ q: 'boston', tier: '1', page: 3 });
    expect(read('')).toEqual({ q: '', tier: '', page: 1 });
  });

  it('takes what it cannot read as the fallback', () => {
    expect(read('?tier=9&page=x')).toEqual({ q: '', tier: '', page: 1 });
    expect(read('?page=-2&q=%20%20')).toEqual({ q: '', tier: '', page: 1 });
    expect(read('?page=1.5')).toEqual({ q: '', tier: '', page: 1 });
  });

  it('writes only what differs from the fallback, trimmed, so the plain list is the plain path', () => {
    expect(change('', { q: 'Ohio City ' })).toBe('q=Ohio+City');
    expect(change('q=ohio', { q: '' })).toBe('');
    expect(change('tier=2', { tier: '' })).toBe('');
    expect(change('', { page: 1 })).toBe('');
  });

  it('sends the reset parameters back to their fallback on any other change', () => {
    expect(change('q=ohio&page=4', { q: 'ohio c' })).toBe('q=ohio+c');
    expect(change('q=ohio&page=4', { tier: '2' })).toBe('q=ohio&tier=2');
    expect(change('q=ohio&tier=2', { page: 2 })).toBe('q=ohio&tier=2&page=2');
  });

  it('leaves parameters that are not its own', () => {
    expect(change('utm_source=mail', { tier: '1' })).toBe('utm_source=mail&tier=1');
  });
});

// The hook in a real router over a memory history, in a DOM of its own.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const DEBOUNCE_MS = 300;

describe('useSearchState', () => {
  let root: Root;
  let container: HTMLElement;
  let view: ReturnType<typeof useSearchState<ListState>>;
  let router: ReturnType<typeof createMemoryRouter>;

  function List() {
    view = useSearchState(LIST, { debounceMs: DEBOUNCE_MS, resets: RESETS });
    return null;
  }

  async function open(path: string) {
    router = createMemoryRouter(
      [
        { path: '/zip', element: <List /> },
        { path: '/zip/:code', element: null },
        { path: '/elsewhere', element: null },
      ],
      { initialEntries: ['/elsewhere', path], initialIndex: 1 },
    );
    await act(async () => root.render(<RouterProvider router={router} />));
  }
  const address = () => `${router.state.location.pathname}${router.state.location.search}`;
  const typeInBox = (text: string) => act(() => view.setSearch(text));
  const pause = () => act(async () => vi.advanceTimersByTime(DEBOUNCE_MS));
  const back = () => act(async () => void (await router.navigate(-1)));

  beforeEach(() => {
    vi.useFakeTimers();
    container = document.createElement('div');
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    vi.useRealTimers();
  });

  it('reads the state from the address and shows its search in the box', async () => {
    await open('/zip?q=ohio&tier=1&page=2');
    expect(view.state).toEqual({ q: 'ohio', tier: '1', page: 2 });
    expect(view.search).toBe('ohio');
  });

  it('writes the box to the address once typing pauses, replacing the entry', async () => {
    await open('/zip?page=3');
    await typeInBox('cleve');
    expect(address()).toBe('/zip?page=3');
    await typeInBox('cleveland ');
    await pause();
    expect(address()).toBe('/zip?q=cleveland');
    expect(view.state.q).toBe('cleveland');
    // The box keeps what was typed (the trailing space) rather than the trimmed address.
    expect(view.search).toBe('cleveland ');
    // Replaced, not added: one Back leaves the list.
    await back();
    expect(address()).toBe('/elsewhere');
  });

  it('takes what is typed along with a change made before the pause, which the pause then leaves alone', async () => {
    await open('/zip?q=ohio');
    await typeInBox('springf');
    await act(async () => view.change({ page: 2 }));
    expect(address()).toBe('/zip?q=springf&page=2');
    await pause();
    expect(address()).toBe('/zip?q=springf&page=2');
    expect(view.state).toEqual({ q: 'springf', tier: '', page: 2 });
  });

  it('makes a change a step of its own that Back undoes, and the box follows the address', async () => {
    await open('/zip?q=ohio');
    await act(async () => view.change({ tier: '2' }));
    expect(address()).toBe('/zip?q=ohio&tier=2');
    await act(async () => view.change({ page: 2 }));
    expect(address()).toBe('/zip?q=ohio&tier=2&page=2');
    await back();
    expect(view.state).toEqual({ q: 'ohio', tier: '2', page: 1 });

    // Typed, written, then Back: the box shows the older search and does not write its text back.
    await typeInBox('boston');
    await pause();
    expect(view.state.q).toBe('boston');
    await act(async () => view.change({ tier: '1' }));
    await typeInBox('akron');
    await pause();
    expect(address()).toBe('/zip?q=akron&tier=1');
    await back();
    expect(address()).toBe('/zip?q=boston&tier=2');
    expect(view.search).toBe('boston');
    await pause();
    expect(address()).toBe('/zip?q=boston&tier=2');
  });

  it('writes a search typed but not yet written before leaving, so Back returns to it', async () => {
    await open('/zip');
    await typeInBox('akron');
    await act(async () => {
      await view.commitSearch();
      await router.navigate('/zip/44308');
    });
    await back();
    expect(address()).toBe('/zip?q=akron');
    expect(view.search).toBe('akron');
  });

  it('clears the box and the search at once', async () => {
    await open('/zip?q=ohio&page=2');
    await act(async () => view.clearSearch());
    expect(address()).toBe('/zip');
    expect(view.search).toBe('');
  });
});
