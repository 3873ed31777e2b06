import { describe, expect, it } from 'vitest';
import { coveredRequestsPath } from './coveredRequests';

describe('coveredRequestsPath', () => {
  it('asks for the plain list when nothing is searched or sorted', () => {
    expect(coveredRequestsPath({ q: '  ', sort: 'newest' }, null)).toBe('/api/requests/covered');
    expect(coveredRequestsPath({ q: '', sort: 'newest' }, '17')).toBe('/api/requests/covered?cursor=17');
  });

  it('sends the words, the sort and a page size of 24 when searching', () => {
    expect(coveredRequestsPath({ q: ' Austin TX ', sort: 'city' }, '24')).toBe(
      '/api/requests/covered?q=Austin+TX&sort=city&limit=24&cursor=24',
    );
  });
});
