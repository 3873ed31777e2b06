import { describe, expect, it } from 'vitest';
import { zipPageQuery } from './zipCodes';

describe('the query string of a /zip page', () => {
  it('asks for the first page as the bare limit, the URL the gateway sees most', () => {
    expect(zipPageQuery({ search: '', tier: '', page: 1, pageSize: 24 })).toBe('limit=24');
    expect(zipPageQuery({ search: '   ', tier: '', page: 1, pageSize: 24 })).toBe('limit=24');
  });

  it('sends one URL for one search however it was typed, with the tier and the offset of the page', () => {
    expect(zipPageQuery({ search: ' Ohio City ', tier: '3', page: 3, pageSize: 24 })).toBe(
      'limit=24&q=ohio+city&tier=3&offset=48',
    );
    expect(zipPageQuery({ search: 'OHIO CITY', tier: '3', page: 3, pageSize: 24 })).toBe(
      zipPageQuery({ search: 'ohio city', tier: '3', page: 3, pageSize: 24 }),
    );
  });
});
