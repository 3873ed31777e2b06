import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { type TestUser, adminSession, closeSupport, session } from './support.js';

/**
 * Every /api/admin path of api.md, and some nobody serves. The gateway decides before routing:
 * anonymous is 401 and a signed-in user 403 on all of them, so a 404 never tells an outsider
 * which admin paths exist. An admin reaches the service (whatever it answers).
 */
const SERVED: [string, string][] = [
  ['GET', '/api/admin/dashboard'],
  ['GET', '/api/admin/recent-requests'],
  ['GET', '/api/admin/requests/000000000000000000000000'],
  ['PUT', '/api/admin/requests/000000000000000000000000/status'],
  ['POST', '/api/admin/requests/000000000000000000000000/upload'],
  ['GET', '/api/admin/webhook-keys'],
  ['POST', '/api/admin/webhook-keys'],
  ['PUT', '/api/admin/webhook-keys/some-key/toggle'],
  ['GET', '/api/admin/leads'],
  ['PUT', '/api/admin/leads/some-lead/status'],
  ['GET', '/api/admin/leads/export.csv'],
  ['GET', '/api/admin/leads/stats'],
  ['POST', '/api/admin/zipcodes/import'],
];
const UNSERVED: [string, string][] = [
  ['GET', '/api/admin'],
  ['GET', '/api/admin/'],
  ['GET', '/api/admin/secret-backup'],
  ['DELETE', '/api/admin/users/all'],
  ['GET', '/api/admin/../admin/dashboard'],
  ['GET', '/api//admin/dashboard'],
  ['GET', '/api/%61dmin/dashboard'],
];

let user: TestUser;
let admin: TestUser;
beforeAll(async () => {
  user = await session();
  admin = await adminSession();
});
afterAll(closeSupport);

describe.each([...SERVED, ...UNSERVED])('%s %s', (method, path) => {
  const body = method === 'GET' || method === 'DELETE' ? undefined : {};

  it('is 401 for an anonymous caller', async () => {
    const res = await api(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body.error).toBeTruthy();
  });

  it('is 403 for a signed-in user', async () => {
    const res = await api(method, path, { body, token: user.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/admin/i);
  });

  it('passes an admin on (never 401 or 403)', async () => {
    const res = await api(method, path, { body, token: admin.token });
    expect([401, 403]).not.toContain(res.status);
  });
});

it('serves the served ones to an admin: dashboard and recent requests answer 200', async () => {
  expect((await api('GET', '/api/admin/dashboard', { token: admin.token })).status).toBe(200);
  expect((await api('GET', '/api/admin/recent-requests', { token: admin.token })).status).toBe(200);
  expect((await api('GET', '/api/admin/secret-backup', { token: admin.token })).status).toBe(404);
});
