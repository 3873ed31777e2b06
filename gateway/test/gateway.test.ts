import { CACHE_GENERATION_CHANNEL, SessionStore } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';

const env = testEnv();
const redis = new Redis(env.redisUrl);
const sessions = new SessionStore(redis);
afterAll(() => redis.quit());

describe('public answers kept by the gateway', () => {
  it('are served without the service until a bump is announced, by whichever replica made it', async () => {
    await api('GET', '/api/requests/covered');
    expect((await api('GET', '/api/requests/covered')).headers.get('x-cache')).toBe('hit');
    // Announced without changing the generation in Redis: only a subscribed gateway can notice.
    await redis.publish(CACHE_GENERATION_CHANNEL, 'requests:covered:generation');
    expect((await api('GET', '/api/requests/covered')).headers.get('x-cache')).toBe('miss');
    expect((await api('GET', '/api/requests/covered')).headers.get('x-cache')).toBe('hit');
    // A bump of some other list leaves this one kept.
    await redis.publish(CACHE_GENERATION_CHANNEL, 'zipcodes:list:generation');
    expect((await api('GET', '/api/requests/covered')).headers.get('x-cache')).toBe('hit');
  });

  it('pass a query the service will not have kept on as the service answered it', async () => {
    const res = await api('GET', '/api/requests/covered?limit=0');
    expect(res.status).toBe(400);
    expect(res.body.error).toBeTruthy();
    expect(res.headers.get('x-cache')).toBeNull();
  });
});

describe('GET /api/health', () => {
  it('reports every service up', async () => {
    const res = await api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      services: { auth: 'up', requests: 'up', files: 'up', zipcodes: 'up', leads: 'up', notifications: 'up' },
    });
    // Which dependency of which service, as each one's readiness reports it.
    expect(res.body.dependencies.requests).toEqual({ mongo: 'up', redis: 'up', kafka: 'up' });
    expect(res.body.dependencies.files).toEqual({ s3: 'up' });
  });
});

describe('unknown paths', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await api('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'There is nothing at this address.', code: 'NOT_FOUND' });
  });

  it('serves the web app for any other path so client routes survive a reload', async () => {
    const res = await fetch(`${env.gatewayUrl}/anything/else`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('<div id="root">');
  });
});

describe('request ids', () => {
  it('echoes the caller’s x-request-id', async () => {
    const res = await api('GET', '/api/health', { headers: { 'x-request-id': 'trace-me-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-me-123');
  });

  it('generates one when none is sent, also on proxied responses', async () => {
    const res = await api('GET', '/api/admin/leads');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replaces an id that does not look like one', async () => {
    const res = await api('GET', '/api/health', { headers: { 'x-request-id': 'bad id with spaces <script>' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('security', () => {
  it('sets security headers and keeps CORS closed', async () => {
    const res = await api('GET', '/api/health', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // JSON loads nothing and is framed by nobody.
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    // A preflight is no grant either: the service has no OPTIONS route, and says so in JSON (405,
    // naming the methods the path takes).
    const preflight = await fetch(`${env.gatewayUrl}/api/requests/covered`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('allow')).toBe('GET, HEAD');
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await preflight.json()) as { code?: string }).code).toBe('METHOD_NOT_ALLOWED');
    // Pages (and report files, which open in a tab) get the policy a page needs.
    for (const path of ['/', '/api/files/no-such-link']) {
      const page = await fetch(`${env.gatewayUrl}${path}`);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    }
  });

  it('refuses admin paths without a token (401) and for a signed-in non-admin (403)', async () => {
    expect((await api('GET', '/api/admin/leads')).status).toBe(401);
    const token = await sessions.create({ userId: 'u-gw-1', email: 'user@example.test', role: 'user' });
    const res = await api('GET', '/api/admin/leads', { token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/Admin/);
  });

  it('lets an admin through to the service', async () => {
    const token = await sessions.create({ userId: 'u-gw-2', email: 'admin@example.test', role: 'admin' });
    const res = await api('PUT', '/api/admin/leads', { token, body: {} });
    // The leads service answered (a method its route does not take: 405 with the methods only it
    // knows), so the gateway forwarded the call.
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('treats client-sent identity headers as nothing: a forged admin is still refused', async () => {
    const res = await api('GET', '/api/admin/leads', {
      headers: { 'x-user-id': 'forged', 'x-user-email': 'x@example.test', 'x-user-role': 'admin' },
    });
    expect(res.status).toBe(401);
  });

  it('a service called directly, bypassing the gateway, refuses the request', async () => {
    const res = await fetch(`http://127.0.0.1:${env.servicePorts.leads}/api/admin/leads`, {
      headers: { 'x-user-id': 'forged', 'x-user-role': 'admin' },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('GATEWAY_ONLY');
  });

  it('a revoked session no longer counts', async () => {
    const token = await sessions.create({ userId: 'u-gw-3', email: 'admin2@example.test', role: 'admin' });
    await sessions.revoke(token);
    expect((await api('GET', '/api/admin/leads', { token })).status).toBe(401);
  });
});

describe('cache-control on answers for a signed-in caller', () => {
  it('is no-store on the sign-in token, /api/auth/me and an admin list, and absent on a public list', async () => {
    const email = uniqueEmail('gw-admin');
    const password = 'correct horse gateway';
    expect((await createAdmin(email, password)).code).toBe(0);
    const login = await api<{ token: string }>('POST', '/api/auth/admin-login', { body: { email, password } });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const token = login.body.token;
    for (const path of ['/api/auth/me', '/api/admin/leads', '/api/admin/dashboard']) {
      const res = await api('GET', path, { token });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const denied = await api('GET', '/api/auth/me', { token: 'not-a-session' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('cache-control')).toBe('no-store');
    const list = await api('GET', '/api/zipcodes');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).not.toBe('no-store');
  });
});
