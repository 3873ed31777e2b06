import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { INTERNAL_SECRET_HEADER } from './identity.js';
import { createLogger } from './logger.js';
import { requireAdmin, requireUser } from './route-auth.js';

const logger = createLogger({ name: 'route-auth-test', level: 'silent', format: 'json' });
const SECRET = 'route-auth-secret';
const gateway = { [INTERNAL_SECRET_HEADER]: SECRET };
const user = { ...gateway, 'x-user-id': 'u1', 'x-user-email': 'u@example.com', 'x-user-role': 'user' };
const admin = { ...user, 'x-user-role': 'admin' };
const Body = Type.Object({ name: Type.String({ minLength: 1 }) });

let app: ServiceApp;
afterEach(() => app?.close());

async function service() {
  app = await createServiceApp({ name: 'test', logger, internalSecret: SECRET });
  app.get('/api/open', async () => ({ ok: true }));
  app.post('/api/mine', { config: { auth: 'user' }, schema: { body: Body } }, async (req) => ({
    user: requireUser(req).userId,
  }));
  app.post('/api/maybe', { config: { auth: 'optional' }, schema: { body: Body } }, async (req) => ({
    user: req.identity?.userId ?? null,
  }));
  await app.register(async (scope) => {
    scope.put('/api/admin/thing', { config: { auth: 'admin' } }, async (req) => ({ admin: requireAdmin(req).userId }));
  });
  app.get('/api/forgot', async (req) => ({ user: requireUser(req).userId }));
  await app.ready();
  return app;
}

describe('a route’s declared access', () => {
  it('is checked before its body is read or validated: 401 without a session, 403 for a non-admin', async () => {
    await service();
    const anonymous = await app.inject({ method: 'POST', url: '/api/mine', headers: gateway, payload: { x: 1 } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const signedIn = await app.inject({ method: 'POST', url: '/api/mine', headers: user, payload: { name: 'a' } });
    expect(signedIn.json()).toEqual({ user: 'u1' });
    expect((await app.inject({ method: 'PUT', url: '/api/admin/thing', headers: gateway })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PUT', url: '/api/admin/thing', headers: user })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: '/api/admin/thing', headers: admin })).json()).toEqual({
      admin: 'u1',
    });
    const maybe = await app.inject({ method: 'POST', url: '/api/maybe', headers: gateway, payload: { name: 'a' } });
    expect(maybe.json()).toEqual({ user: null });
  });

  it('is the operation’s `security` and its 401/403 in the OpenAPI document; a public one says it needs nothing', async () => {
    await service();
    const doc = app.swagger() as unknown as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/open']?.get?.security).toEqual([]);
    expect(doc.paths['/api/mine']?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths['/api/mine']?.post?.responses ?? {})).toContain('401');
    expect(doc.paths['/api/maybe']?.post?.security).toEqual([{}, { bearerAuth: [] }]);
    expect(doc.paths['/api/admin/thing']?.put?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths['/api/admin/thing']?.put?.responses ?? {})).toEqual(
      expect.arrayContaining(['401', '403']),
    );
  });

  it('must be declared by a route that reads the caller: otherwise its first call fails, naming it', async () => {
    await service();
    const res = await app.inject({ method: 'GET', url: '/api/forgot', headers: user });
    expect(res.statusCode).toBe(500);
  });
});
