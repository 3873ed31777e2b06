import { REQUEST_ID_SHAPE } from '@homereport/contracts';
import type { GatewayConfig } from './config.js';

export type ServiceName = 'auth' | 'requests' | 'files' | 'zipcodes' | 'leads' | 'notifications';

/**
 * Which service answers which /api path (api.md). First match wins, so the more specific
 * pattern comes first: an upload under /api/admin/requests goes to files, not requests.
 * `route` labels the gateway's HTTP metrics of the calls it forwards (Fastify sees one route,
 * /api/*): one bounded value per entry, so the entry point has RED per route and upstream, and
 * the p99 alert can leave uploads out (infra/k8s/monitoring).
 */
export const ROUTES: { pattern: RegExp; service: ServiceName; route: string }[] = [
  { pattern: /^\/api\/auth(\/|$)/, service: 'auth', route: '/api/auth/*' },
  { pattern: /^\/api\/admin\/users(\/|$)/, service: 'auth', route: '/api/admin/users/*' },
  { pattern: /^\/api\/admin\/requests\/[^/]+\/upload$/, service: 'files', route: '/api/admin/requests/:id/upload' },
  { pattern: /^\/api\/files(\/|$)/, service: 'files', route: '/api/files/*' },
  { pattern: /^\/api\/users\/zip-watch(\/|$)/, service: 'zipcodes', route: '/api/users/zip-watch/*' },
  { pattern: /^\/api\/users(\/|$)/, service: 'requests', route: '/api/users/*' },
  { pattern: /^\/api\/requests(\/|$)/, service: 'requests', route: '/api/requests/*' },
  { pattern: /^\/api\/shared(\/|$)/, service: 'requests', route: '/api/shared/*' },
  { pattern: /^\/api\/admin\/requests(\/|$)/, service: 'requests', route: '/api/admin/requests/*' },
  { pattern: /^\/api\/admin\/recent-requests(\/|$)/, service: 'requests', route: '/api/admin/recent-requests/*' },
  { pattern: /^\/api\/admin\/dashboard(\/|$)/, service: 'requests', route: '/api/admin/dashboard/*' },
  { pattern: /^\/api\/zipcodes(\/|$)/, service: 'zipcodes', route: '/api/zipcodes/*' },
  { pattern: /^\/api\/admin\/zipcodes(\/|$)/, service: 'zipcodes', route: '/api/admin/zipcodes/*' },
  { pattern: /^\/api\/webhooks(\/|$)/, service: 'leads', route: '/api/webhooks/*' },
  { pattern: /^\/api\/admin\/webhook-keys(\/|$)/, service: 'leads', route: '/api/admin/webhook-keys/*' },
  { pattern: /^\/api\/admin\/leads(\/|$)/, service: 'leads', route: '/api/admin/leads/*' },
  { pattern: /^\/api\/contact(\/|$)/, service: 'notifications', route: '/api/contact/*' },
];

/**
 * Public answers the gateway may keep while the service's cache generation holds (public-cache.ts):
 * each URL (path and query string) on its own, only with the service's generation header.
 */
export const PUBLIC_CACHEABLE = new Set(['/api/requests/covered', '/api/zipcodes']);

export function routeFor(path: string): (typeof ROUTES)[number] | null {
  return ROUTES.find((r) => r.pattern.test(path)) ?? null;
}

const UPLOAD_PATH = /^\/api\/admin\/requests\/([^/]+)\/upload$/;

/**
 * An upload to a path whose id cannot be a request's (`..`, `%2e%2e`, an encoded `/` or NUL, too
 * long): answered 404 at the edge, before the files service could put anything under it. Judged
 * on the raw segment: a real id needs no escaping.
 */
export const uploadIdMalformed = (path: string): boolean => {
  const id = UPLOAD_PATH.exec(path)?.[1];
  return id !== undefined && !REQUEST_ID_SHAPE.test(id);
};

export function serviceFor(path: string): ServiceName | null {
  return routeFor(path)?.service ?? null;
}

/** Each service's base URL. */
export type Upstreams = Record<ServiceName, string>;

export function upstreams(config: GatewayConfig): Upstreams {
  return {
    auth: config.AUTH_URL,
    requests: config.REQUESTS_URL,
    files: config.FILES_URL,
    zipcodes: config.ZIPCODES_URL,
    leads: config.LEADS_URL,
    notifications: config.NOTIFICATIONS_URL,
  };
}

const ADMIN_PATH = /^\/+api\/+admin(\/|$)/i;

/**
 * Every /api/admin path needs an admin, whether or not a service answers it: the gateway checks
 * before it routes, so anonymous callers get 401 and users 403 even on paths nobody serves (a 404
 * would tell them what exists). Matched case-insensitively and on the decoded path, so
 * `/API/Admin` or `/api/%61dmin` cannot slip past and reach a service that decodes it.
 */
export const isAdminPath = (path: string) => {
  let decoded = path;
  // Only an escaped path needs decoding (most have no escape at all).
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {}
  }
  return ADMIN_PATH.test(decoded);
};
