import type { GatewayConfig } from './config.js';

export type ServiceName = 'auth' | 'requests' | 'files' | 'zipcodes' | 'leads' | 'notifications';

/**
 * Which service answers which /api path (api.md). First match wins, so the more specific
 * pattern comes first: an upload under /api/admin/requests goes to files, not requests.
 */
export const ROUTES: { pattern: RegExp; service: ServiceName }[] = [
  { pattern: /^\/api\/auth(\/|$)/, service: 'auth' },
  { pattern: /^\/api\/admin\/users(\/|$)/, service: 'auth' },
  { pattern: /^\/api\/admin\/requests\/[^/]+\/upload$/, service: 'files' },
  { pattern: /^\/api\/files(\/|$)/, service: 'files' },
  { pattern: /^\/api\/users\/zip-watch(\/|$)/, service: 'zipcodes' },
  { pattern: /^\/api\/(users|requests|shared)(\/|$)/, service: 'requests' },
  { pattern: /^\/api\/admin\/(requests|recent-requests|dashboard)(\/|$)/, service: 'requests' },
  { pattern: /^\/api\/zipcodes(\/|$)/, service: 'zipcodes' },
  { pattern: /^\/api\/admin\/zipcodes(\/|$)/, service: 'zipcodes' },
  { pattern: /^\/api\/(webhooks)(\/|$)/, service: 'leads' },
  { pattern: /^\/api\/admin\/(webhook-keys|leads)(\/|$)/, service: 'leads' },
  { pattern: /^\/api\/contact(\/|$)/, service: 'notifications' },
];

/**
 * Public answers the gateway may keep while the service's cache generation holds (public-cache.ts):
 * each URL (path and query string) on its own, only with the service's generation header.
 */
export const PUBLIC_CACHEABLE = new Set(['/api/requests/covered', '/api/zipcodes']);

export function serviceFor(path: string): ServiceName | null {
  return ROUTES.find((r) => r.pattern.test(path))?.service ?? null;
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

/**
 * Every /api/admin path needs an admin, whether or not a service answers it: the gateway checks
 * before it routes, so anonymous callers get 401 and users 403 even on paths nobody serves (a 404
 * would tell them what exists). Matched case-insensitively and on the decoded path, so
 * `/API/Admin` or `/api/%61dmin` cannot slip past and reach a service that decodes it.
 */
export const isAdminPath = (path: string) => {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  return /^\/+api\/+admin(\/|$)/i.test(decoded);
};
