import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** One route as Fastify registered it: its method and its URL pattern (`/api/requests/:id/view`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

/** Where a service lists its routes; behind the internal secret like every route but health. */
export const ROUTE_LIST_PATH = '/internal/routes';

/**
 * Records every route the app registers from here on and lists them at ROUTE_LIST_PATH, so a test
 * can hold the public OpenAPI document against what each service really serves (a route hidden
 * from the document, or one registered without going through the schema, shows up there).
 * HEAD routes are Fastify's automatic copies of GET ones and are left out. Not encapsulated: its
 * onRoute hook must see the routes of the whole app.
 */
export const routeList = fp(
  async (app) => {
    const routes: RegisteredRoute[] = [];
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url });
    });
    app.get(ROUTE_LIST_PATH, { schema: { hide: true } }, async () => ({ routes }));
  },
  { name: 'route-list', fastify: '5.x' },
) as FastifyPluginAsync;
