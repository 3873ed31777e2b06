import type { ServiceApp } from './app.js';

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
 * HEAD routes are Fastify's automatic copies of GET ones and are left out.
 */
export function registerRouteList(app: ServiceApp): void {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  app.get(ROUTE_LIST_PATH, { schema: { hide: true } }, async () => ({ routes }));
}
