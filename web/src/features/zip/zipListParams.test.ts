import { describe, expect, it } from 'vitest';
import { filtersFrom, paramsWith } from './zipListParams';

const read = (search: string) => filtersFrom(new URLSearchParams(search));
const change = (search: string, to: Parameters<typeof paramsWith>[1]) =>
  paramsWith(new URLSearchParams(search), to).toString();

describe('the /zip filters in the address', () => {
  it('reads the search, the tier and the page', () => {
    expect(read('?q=boston&tier=1&page=3')).toEqual({ q: 'boston', tier: '1', page: 3 });
    expect(read('')).toEqual({ q: '', tier: '', page: 1 });
  });

  it('takes what it cannot read as the default', () => {
    expect(read('?tier=9&page=x')).toEqual({ q: '', tier: '', page: 1 });
    expect(read('?page=-2&q=%20%20')).toEqual({ q: '', tier: '', page: 1 });
    expect(read('?page=1.5')).toEqual({ q: '', tier: '', page: 1 });
  });

  it('writes only what differs from the default, so the plain list is plain /zip', () => {
    expect(change('', { q: 'Ohio City ' })).toBe('q=Ohio+City');
    expect(change('q=ohio', { q: '' })).toBe('');
    expect(change('tier=2', { tier: '' })).toBe('');
    expect(change('', { page: 1 })).toBe('');
  });

  it('starts a new search or tier at page 1, and keeps the page otherwise', () => {
    expect(change('q=ohio&page=4', { q: 'ohio c' })).toBe('q=ohio+c');
    expect(change('q=ohio&page=4', { tier: '3' })).toBe('q=ohio&tier=3');
    expect(change('q=ohio&tier=3', { page: 2 })).toBe('q=ohio&tier=3&page=2');
  });

  it('leaves parameters that are not its own', () => {
    expect(change('utm_source=mail', { tier: '1' })).toBe('utm_source=mail&tier=1');
  });
});
