import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDebounced } from './useDebounced';

/**
 * A list's search, order, filter and page kept in the address (?q=boston&tier=1&page=2), so Back,
 * reload, a bookmark and a shared link all show the same list. /properties, /zip and
 * /admin/requests use it; each names its parameters once with the readers below.
 */

/** One search parameter: how its text reads, and the value it has when absent or unreadable. */
export interface Param<T> {
  read: (raw: string | null) => T;
  fallback: T;
}

/** Every parameter of a list, by name; the name is the key in the address. */
export type Params<S> = { [K in keyof S]: Param<S[K]> };

/** Free text, trimmed: what the server is asked for ('' for none). */
export const textParam: Param<string> = { read: (raw) => (raw ?? '').trim(), fallback: '' };

/** One of a fixed set of values; anything else reads as `fallback`. */
export function choiceParam<T extends string>(choices: readonly T[], fallback: T): Param<T> {
  return { read: (raw) => (choices.includes(raw as T) ? (raw as T) : fallback), fallback };
}

/** A page number counted from 1; anything that is not a whole number above 1 reads as 1. */
export const pageParam: Param<number> = {
  read: (raw) => {
    const page = Number(raw);
    return Number.isSafeInteger(page) && page > 1 ? page : 1;
  },
  fallback: 1,
};

/** The state an address asks for. */
export function readSearchState<S>(params: Params<S>, search: URLSearchParams): S {
  const state = {} as S;
  for (const name of Object.keys(params) as (keyof S & string)[]) state[name] = params[name].read(search.get(name));
  return state;
}

/**
 * The address after a change. Values at their fallback are left out, so the plain list is the
 * plain path; `resets` go back to their fallback when anything else changes (a new search starts
 * at page 1). Parameters that are not the list's own stay as they were.
 */
export function withSearchState<S>(
  params: Params<S>,
  search: URLSearchParams,
  change: Partial<S>,
  resets: readonly (keyof S)[] = [],
): URLSearchParams {
  const next = { ...readSearchState(params, search), ...change };
  for (const name of resets) if (!(name in change)) next[name] = params[name].fallback;
  const result = new URLSearchParams(search);
  for (const name of Object.keys(params) as (keyof S & string)[]) {
    // Read back through the parameter, so what is written is what a reload reads (text trimmed).
    const value = params[name].read(String(next[name]));
    if (value === params[name].fallback) result.delete(name);
    else result.set(name, String(value));
  }
  return result;
}

export interface SearchStateOptions<S> {
  /** How long the search box waits for the next key before the address (and the request) follows. */
  debounceMs: number;
  /** Parameters that go back to their fallback when another one changes. */
  resets?: readonly (keyof S)[];
}

/**
 * The list's state from the address, a way to change it, and the search box bound to `q`.
 * A change is a step of its own in the history (Back undoes it). The box answers every key at
 * once; the address follows when typing pauses and replaces the entry rather than adding one per
 * word, so one Back leaves the search. When the address changes under the box (Back, a link),
 * the box shows what it says.
 */
export function useSearchState<S extends { q: string }>(params: Params<S>, options: SearchStateOptions<S>) {
  const { search: locationSearch } = useLocation();
  const navigate = useNavigate();
  const address = useMemo(() => new URLSearchParams(locationSearch), [locationSearch]);
  const state = useMemo(() => readSearchState(params, address), [params, address]);

  // The address as last written, which a second write before the next render builds on.
  const latest = useRef(address);
  useEffect(() => {
    latest.current = address;
  }, [address]);

  const resets = options.resets;
  const write = useCallback(
    (change: Partial<S>, replace: boolean) => {
      const next = withSearchState(params, latest.current, change, resets);
      latest.current = next;
      const query = next.toString();
      // Resolves once the router has moved, so a navigation started after it does not cancel it.
      return Promise.resolve(navigate({ search: query ? `?${query}` : '' }, { replace }));
    },
    [params, resets, navigate],
  );
  const [search, setSearch] = useState(state.q);
  const typed = useDebounced(search, options.debounceMs);
  // The search the address holds or is about to hold: the box and the address each follow the
  // other only when they differ from it, so neither writes the other back.
  const written = useRef(state.q);

  // What is typed but not yet in the address goes with the change: otherwise the write after the
  // pause would come later and reset what the change set (Next right after typing went back to
  // page 1).
  const change = useCallback(
    (to: Partial<S>) => {
      const pending = search.trim() !== written.current;
      if (pending) written.current = search.trim();
      void write(pending ? ({ q: search, ...to } as Partial<S>) : to, false);
    },
    [write, search],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled change of the box writes the address; one changed by Back must not be written over with the box's older text.
  useEffect(() => {
    if (typed.trim() === written.current) return;
    written.current = typed.trim();
    void write({ q: typed } as Partial<S>, true);
  }, [typed]);
  useEffect(() => {
    if (state.q === written.current) return;
    written.current = state.q;
    setSearch(state.q);
  }, [state.q]);

  /** Writes what is typed but not yet in the address now (before leaving the page, so Back returns to it). */
  const commitSearch = useCallback(async () => {
    if (search.trim() === written.current) return;
    written.current = search.trim();
    await write({ q: search } as Partial<S>, true);
  }, [search, write]);

  /** Empties the box and the search at once, without waiting for the pause. */
  const clearSearch = useCallback(() => {
    setSearch('');
    written.current = '';
    void write({ q: '' } as Partial<S>, true);
  }, [write]);

  return { state, change, search, setSearch, commitSearch, clearSearch };
}
