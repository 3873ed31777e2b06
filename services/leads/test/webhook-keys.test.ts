import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import {
  adminToken,
  createKey,
  genericLead,
  postLead,
  uniqueKeyName,
  userToken,
  withLeadsDb,
} from './support/leads.js';

let admin: string;
beforeAll(async () => {
  admin = (await adminToken()).token;
});

describe('POST /api/admin/webhook-keys', () => {
  it('creates a key and shows its secret once, with the webhook URL', async () => {
    const name = uniqueKeyName('Google Ads');
    const res = await api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name: `  ${name}  ` } });
    expect(res.status).toBe(201);
    expect(res.body.webhook_url).toBe(`${testEnv().gatewayUrl}/api/webhooks/leads`);
    expect(res.body.webhook_key).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
    expect(res.body.key).toMatchObject({ key_name: name, is_active: true, last_used: null });

    // Never again: not in the list, not stored in the clear.
    const list = await api('GET', '/api/admin/webhook-keys', { token: admin });
    expect(JSON.stringify(list.body)).not.toContain(res.body.webhook_key);
    const stored = await withLeadsDb((db) => db.collection('webhook_keys').findOne({ _id: name as never }));
    expect(stored?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(res.body.webhook_key.slice(4));
  });

  it('gives every key a different secret', async () => {
    const a = await createKey(admin);
    const b = await createKey(admin);
    expect(a.secret).not.toBe(b.secret);
  });

  it.each([
    ['blank', '   '],
    ['empty', ''],
    ['too long', 'x'.repeat(101)],
  ])('refuses a %s name with 400', async (_what, key_name) => {
    const res = await api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Key name/);
  });

  it('refuses a missing or non-string name with 400', async () => {
    expect((await api('POST', '/api/admin/webhook-keys', { token: admin, body: {} })).status).toBe(400);
    expect((await api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name: 5 } })).status).toBe(400);
  });

  it('refuses a taken name with 409, also when two admins race for it', async () => {
    const name = uniqueKeyName();
    const [a, b] = await Promise.all([
      api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name: name } }),
      api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name: name } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const again = await api('POST', '/api/admin/webhook-keys', { token: admin, body: { key_name: name } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already exists/);
  });
});

describe('GET /api/admin/webhook-keys', () => {
  it('lists keys newest first with created, last used and active state', async () => {
    const first = await createKey(admin);
    const second = await createKey(admin);
    const res = await api('GET', '/api/admin/webhook-keys', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.webhook_url).toBe(`${testEnv().gatewayUrl}/api/webhooks/leads`);
    const names = res.body.keys.map((k: { key_name: string }) => k.key_name);
    expect(names.indexOf(second.name)).toBeLessThan(names.indexOf(first.name));
    const key = res.body.keys.find((k: { key_name: string }) => k.key_name === first.name);
    expect(Object.keys(key).sort()).toEqual(['created_at', 'is_active', 'key_name', 'last_used']);
    expect(new Date(key.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('updates last_used when a lead arrives with the key', async () => {
    const key = await createKey(admin);
    const before = Date.now();
    expect((await postLead(genericLead(), key.secret)).status).toBe(200);
    const res = await api('GET', '/api/admin/webhook-keys', { token: admin });
    const listed = res.body.keys.find((k: { key_name: string }) => k.key_name === key.name);
    expect(new Date(listed.last_used).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('PUT /api/admin/webhook-keys/:key_name/toggle', () => {
  it('switches a key off and on; an inactive key is refused with 401', async () => {
    const key = await createKey(admin, uniqueKeyName('Spring / Summer'));
    const path = `/api/admin/webhook-keys/${encodeURIComponent(key.name)}/toggle`;

    const off = await api('PUT', path, { token: admin });
    expect(off.status).toBe(200);
    expect(off.body.key).toMatchObject({ key_name: key.name, is_active: false });
    const refused = await postLead(genericLead(), key.secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/unknown or inactive/);

    const on = await api('PUT', path, { token: admin });
    expect(on.body.key.is_active).toBe(true);
    expect((await postLead(genericLead(), key.secret)).status).toBe(200);
  });

  it('flips exactly once per call when two admins toggle at the same moment', async () => {
    const key = await createKey(admin);
    const path = `/api/admin/webhook-keys/${encodeURIComponent(key.name)}/toggle`;
    const results = await Promise.all([1, 2, 3].map(() => api('PUT', path, { token: admin })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const list = await api('GET', '/api/admin/webhook-keys', { token: admin });
    // Three flips from active: inactive.
    expect(list.body.keys.find((k: { key_name: string }) => k.key_name === key.name).is_active).toBe(false);
  });

  it('answers 404 for an unknown key', async () => {
    const res = await api('PUT', `/api/admin/webhook-keys/${encodeURIComponent(uniqueKeyName())}/toggle`, {
      token: admin,
    });
    expect(res.status).toBe(404);
  });
});

describe('admin calls about keys and leads', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/admin/webhook-keys'],
    ['POST', '/api/admin/webhook-keys', { key_name: 'x' }],
    ['PUT', '/api/admin/webhook-keys/x/toggle'],
    ['GET', '/api/admin/leads'],
    ['GET', '/api/admin/leads/stats'],
    ['GET', '/api/admin/leads/export.csv'],
    ['PUT', '/api/admin/leads/1/status', { status: 'qualified' }],
  ];

  it.each(calls)('%s %s answers 401 without a token', async (method, path, body) => {
    expect((await api(method, path, { body })).status).toBe(401);
  });

  it('answer 403 to a signed-in customer', async () => {
    const token = await userToken();
    for (const [method, path, body] of calls) {
      const res = await api(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });
});
