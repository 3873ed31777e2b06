import { afterEach, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { INTERNAL_SECRET_HEADER } from './identity.js';
import { createLogger } from './logger.js';
import { ROUTE_LIST_PATH } from './route-list.js';

const logger = createLogger({ name: 'route-list-test', level: 'silent', format: 'json' });
const SECRET = 'route-list-secret';
let app: ServiceApp;
afterEach(() => app?.close());

async function service(internalSecret?: string) {
  app = await createServiceApp({ name: 'test', logger, ...(internalSecret ? { internalSecret } : {}) });
  app.get('/api/things/:id', async () => ({}));
  await app.register(async (scope) => {
    scope.route({ method: ['PUT', 'DELETE'], url: '/api/things/:id/star', handler: async () => ({}) });
  });
  await app.ready();
  return app;
}

describe('the route list', () => {
  it('names every route the service registered, plugins’ included, without the automatic HEAD copies', async () => {
    await service(SECRET);
    const res = await app.inject({ url: ROUTE_LIST_PATH, headers: { [INTERNAL_SECRET_HEADER]: SECRET } });
    expect(res.statusCode).toBe(200);
    const routes = (res.json() as { routes: { method: string; url: string }[] }).routes;
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/api/things/:id' },
        { method: 'PUT', url: '/api/things/:id/star' },
        { method: 'DELETE', url: '/api/things/:id/star' },
        { method: 'GET', url: '/openapi.json' },
      ]),
    );
    expect(routes.filter((r) => r.method === 'HEAD')).toEqual([]);
  });

  it('is refused without the internal secret, like every route but health', async () => {
    await service(SECRET);
    expect((await app.inject({ url: ROUTE_LIST_PATH })).statusCode).toBe(403);
  });

  it('does not exist on an app without a secret (the gateway, which faces the public)', async () => {
    await service();
    expect((await app.inject({ url: ROUTE_LIST_PATH })).statusCode).toBe(404);
  });
});
