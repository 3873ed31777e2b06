import { describe, expect, it } from 'vitest';
import { serviceFor } from './routes.js';

describe('serviceFor', () => {
  it.each([
    ['/api/users/zip-watch', 'zipcodes'],
    ['/api/users/zip-watch/10001', 'zipcodes'],
    ['/api/users/saved/abc', 'requests'],
    ['/api/users/stats', 'requests'],
    ['/api/shared/tok', 'requests'],
    ['/api/admin/requests/x/upload', 'files'],
    ['/api/webhooks/meta', 'leads'],
    ['/api/nothing', null],
  ])('%s goes to %s', (path, service) => {
    expect(serviceFor(path)).toBe(service);
  });
});
