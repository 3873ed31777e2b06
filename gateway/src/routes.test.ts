import { describe, expect, it } from 'vitest';
import { ROUTES, routeFor, serviceFor } from './routes.js';

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

describe('routeFor', () => {
  it('labels each forwarded call with its entry, never the raw path', () => {
    expect(routeFor('/api/admin/requests/abc123/upload')?.route).toBe('/api/admin/requests/:id/upload');
    expect(routeFor('/api/requests/abc123')?.route).toBe('/api/requests/*');
    expect(routeFor('/api/nothing')).toBeNull();
  });

  it("has one label per entry, and only the upload entry matches the p99 alert's upload exclusion", () => {
    const labels = ROUTES.map((r) => r.route);
    expect(new Set(labels).size).toBe(labels.length);
    // infra/k8s/monitoring/alerts.rules.yaml: route!~"/health/.*|.*/upload.*"
    expect(labels.filter((l) => /^(\/health\/.*|.*\/upload.*)$/.test(l))).toEqual(['/api/admin/requests/:id/upload']);
  });
});
