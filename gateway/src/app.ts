import cors from '@fastify/cors';
import {
  AppError,
  CACHE_GENERATION_CHANNEL,
  EdgeMessages,
  type Identity,
  type Logger,
  type Redis,
  type RequestBudget,
  SESSION_ENDED_CHANNEL,
  type ServiceApp,
  SessionStore,
  bodyUnread,
  createServiceApp,
  forbidden,
  notFound,
  redisConnection,
  requestBudget,
  splitList,
  unauthorized,
} from '@homereport/kit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { listenToAnnouncements } from './announcements.js';
import { apiReference } from './api-reference.js';
import { refuseOversizedBody } from './body-limit.js';
import type { GatewayConfig } from './config.js';
import { refuse, refuseFromHook } from './early-answer.js';
import { cachedHealth, servicesHealth } from './health.js';
import { createProxy } from './proxy.js';
import { createPublicCache } from './public-cache.js';
import {
  PUBLIC_CACHEABLE,
  type ServiceName,
  type Upstreams,
  isAdminPath,
  routeFor,
  serviceFor,
  uploadIdMalformed,
  upstreams,
} from './routes.js';
import { securityHeadersFor } from './security-headers.js';
import { createSessionCache } from './session-cache.js';
import { siteIndex } from './site-index.js';
import { webApp } from './web.js';

/** What the gateway's route plugins are given. */
interface GatewayParts {
  config: GatewayConfig;
  redis: Redis;
  targets: Upstreams;
}

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  redis: Redis;
}

/**
 * The gateway: every request goes through Fastify's routing and hooks, so each rule (request id,
 * security headers, body limit, request budget, identity, admin paths, forwarded headers, 503,
 * access line) has one implementation, here or in the kit's app. Each part below registers one
 * group of them, in the order a request meets them.
 */
export async function buildGateway({ config, logger, redis }: GatewayDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'gateway',
    logger,
    trustProxy: config.TRUST_PROXY,
    // A client that sends nothing for this long is cut off.
    connectionTimeoutMs: 60_000,
    // No events, no MongoDB: nothing in a handler here reads a work context (kit app.ts).
    workContext: false,
    // Every answer's security headers, the services' and the framework's own refusals included.
    answerHeaders: securityHeadersFor,
  });
  await app.register(redisConnection, { redis });
  const targets = upstreams(config);
  await registerHeaders(app, config);
  registerBodyRules(app, config);
  await app.register(healthRoutes, { config, redis, targets });
  // /api/openapi.json and /api/docs: the gateway's own, before the /api/* forwarding.
  await app.register(apiReference, { targets, logger });
  await app.register(apiRoutes, { config, logger, redis, targets });
  // /robots.txt and /sitemap.xml, before the web app's fallback would answer them with its HTML.
  await app.register(siteIndex, { targets, internalSecret: config.INTERNAL_SECRET });
  // The built web app: precompressed, hashed assets cached for a year, SPA fallback (web.ts).
  await app.register(webApp, { webDist: config.WEB_DIST, logger });
  return app;
}

/** CORS (closed unless configured); the security headers are the kit app's `answerHeaders`. */
async function registerHeaders(app: ServiceApp, config: GatewayConfig): Promise<void> {
  // Closed by default: the web app is served from the gateway's own origin. The plugin is left out
  // then rather than registered with `origin: false`, which still ran its hook on every request
  // (about 4% of the gateway's busy time on a session check) to add nothing.
  const origins = splitList(config.CORS_ORIGINS);
  if (origins.length > 0) await app.register(cors, { origin: origins, credentials: false });
}

/** Bodies are limited by their declared length and otherwise streamed through untouched. */
function registerBodyRules(app: ServiceApp, config: GatewayConfig): void {
  // Any route, before anything else: a declared body over the limit is refused without reading it.
  const bodyLimits = {
    defaultBytes: config.BODY_LIMIT_BYTES,
    uploadBytes: config.UPLOAD_BODY_LIMIT_BYTES,
    importBytes: config.IMPORT_BODY_LIMIT_BYTES,
  };
  app.addHook('onRequest', (req, reply, done) => {
    try {
      refuseOversizedBody(pathOf(req), req.headers, bodyLimits);
    } catch (err) {
      labelRefused(req);
      return refuseFromHook(req, reply, err as AppError, done);
    }
    done();
  });
  // Nothing here parses bodies: the services do.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));
}

/**
 * /api/health: each answer fans out to every service and their dependencies, so it is asked at
 * most every 1.5 s, limited per client, and not logged at info (probes call it every few seconds).
 */
const healthRoutes: FastifyPluginAsync<GatewayParts> = async (app, { config, redis, targets }) => {
  await app.register(
    requestBudget,
    perMinute(redis, 'ratelimit:gw-health:', config.HEALTH_RATE_LIMIT_PER_MINUTE, {
      message: 'Too many health checks. Please slow down.',
    }),
  );
  const health = cachedHealth(() => servicesHealth(targets));
  app.get('/api/health', { logLevel: 'warn' }, async (_req, reply) => {
    const { ok, body } = await health();
    if (!ok) reply.header('retry-after', '5');
    return reply.status(ok ? 200 : 503).send(body);
  });
};

/**
 * Every other /api path: the per-client budget, then kept public answers or the caller's
 * identity, the admin-path rule, and the service that answers it.
 */
const apiRoutes: FastifyPluginAsync<GatewayParts & { logger: Logger }> = async (
  app,
  { config, logger, redis, targets },
) => {
  // The per-client budget of every /api route but health (which has its own): counted before
  // anything else of the route, kept public answers included.
  await app.register(
    requestBudget,
    perMinute(redis, 'ratelimit:gw:', config.RATE_LIMIT_PER_MINUTE, {
      message: 'Too many requests. Please slow down and try again shortly.',
      onExceeded: labelRefused,
    }),
  );
  // What the services announce: generation bumps (public answers) and ended sessions.
  const announcements = listenToAnnouncements(redis, [CACHE_GENERATION_CHANNEL, SESSION_ENDED_CHANNEL], logger);
  // Public answers kept here while the owning service's cache generation holds (public-cache.ts).
  const publicCache = createPublicCache({
    redis,
    announcements,
    logger,
    internalSecret: config.INTERNAL_SECRET,
    paths: PUBLIC_CACHEABLE,
  });
  const proxy = createProxy(config.INTERNAL_SECRET, targets);
  const sessions = createSessionCache(new SessionStore(redis), announcements, { keepMs: config.SESSION_KEEP_MS });
  const resolveIdentity = identityResolver(sessions);
  // Writes to these services can change what the public cache keeps.
  const cacheOwners = new Set([...PUBLIC_CACHEABLE].map((path) => serviceFor(path)));
  app.addHook('onClose', async () => {
    proxy.close();
    announcements.close();
  });

  /** `relabel`: through the catch-all route, whose pattern alone would say nothing of the call. */
  const forwardApi = async (req: FastifyRequest, reply: FastifyReply, relabel: boolean) => {
    const path = pathOf(req);
    const target = routeFor(path);
    // The metrics and span (kit app.ts) get the routing entry's pattern: a constant, so nothing
    // is allocated per request (not even Fastify's routeOptions object, which the kit then skips).
    if (relabel && target) req.routeLabel = target.route;
    try {
      const identity = await resolveIdentity(req);
      // A signed-in caller's answers, and auth's (they hand out tokens), are nobody else's: no
      // browser or shared cache may keep them (ASVS 8.2.1).
      if (identity || path.startsWith('/api/auth/')) reply.header('cache-control', 'no-store');
      // Before routing: an unserved admin path answers 401/403 like a served one, never 404.
      if (isAdminPath(path)) {
        if (!identity) throw unauthorized();
        if (identity.role !== 'admin') throw forbidden('Admin access is required.');
      }
      if (uploadIdMalformed(path)) throw notFound('Request not found.');
      // No service's: the kit's answer for no route (405 with Allow for the gateway's own paths).
      if (!target) {
        if (bodyUnread(req)) throw notFound(EdgeMessages.notFound);
        return reply.callNotFound();
      }
      return await proxy.forward(req, reply, target, identity);
    } catch (err) {
      // Refused before the body was read (an upload without a session): the answer must survive.
      if (err instanceof AppError) return refuse(req, reply, err);
      throw err;
    }
  };

  // Every method a service might take is forwarded, so the service that owns the path answers a
  // method it does not take (405 with its Allow). Not QUERY: Fastify refuses one without a
  // Content-Type before any handler, so it meets the kit's answer for no route here instead.
  app.route({
    method: FORWARDED_METHODS,
    url: '/api/*',
    handler: (req, reply) => forwardApi(req, reply, true),
    // A write answered by a service whose public answers are kept: what it kept may be stale.
    // Not a refused one (4xx, here or by the service), which changed nothing: refused writes
    // must not let anyone empty the cache and send every public read to the service. A 5xx may
    // or may not have written. A write to auth (sign-out, password, account) may have ended the
    // caller's session: this gateway drops it at once, before the announcement reaches it.
    onResponse: (req, reply, done) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const path = pathOf(req);
        const service = serviceFor(path);
        const refused = reply.statusCode >= 400 && reply.statusCode < 500;
        // A user's own lists (saved reports, watched ZIPs) are in those services but in no public list.
        if (service && cacheOwners.has(service) && !refused && !path.startsWith('/api/users/')) {
          publicCache.written(targets[service]);
        }
        const token = service === 'auth' ? bearerToken(req) : null;
        if (token) sessions.forget(token);
      }
      done();
    },
  });

  // Kept public answers: served by a hook once the budget (an onRequest hook) allowed the
  // request, before identity is looked up (they are the same for everyone); on a miss the cache
  // asks the service itself.
  for (const path of PUBLIC_CACHEABLE) {
    const target = targets[serviceFor(path) as ServiceName];
    app.get(path, {
      preValidation: async (req, reply) => {
        if (await publicCache.serve(req, reply, path, target)) return reply;
      },
      handler: (req, reply) => forwardApi(req, reply, false),
    });
  }
};

/** A per-client budget per minute, counted in Redis under `prefix`; a max of 0 is none (config.ts). */
function perMinute(
  redis: Redis,
  prefix: string,
  max: number,
  answer: Pick<RequestBudget, 'message' | 'onExceeded'>,
): RequestBudget {
  return { redis, prefix, max, windowSeconds: 60, ...answer };
}

/** What the /api catch-all forwards: every method Fastify routes but QUERY (see apiRoutes). */
const FORWARDED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/**
 * A call through the catch-all refused before its handler (413, 429) gets the label of the
 * routing entry it was bound for, as forwarded ones do (forwardApi): refusals per route, not one
 * `/api/*` series for all. Only on refusal, so the common path looks nothing up twice.
 */
function labelRefused(req: FastifyRequest): void {
  if (req.routeOptions.url === '/api/*') req.routeLabel = routeFor(pathOf(req))?.route ?? null;
}

/** A request's path, without its query string. */
function pathOf(req: FastifyRequest): string {
  const query = req.url.indexOf('?');
  return query === -1 ? req.url : req.url.slice(0, query);
}

/** The token of a request's `Authorization: Bearer` header, or null. */
function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** The signed-in caller behind a request's bearer token, or null. */
function identityResolver(sessions: ReturnType<typeof createSessionCache>) {
  return async (req: FastifyRequest): Promise<Identity | null> => {
    const token = bearerToken(req);
    if (!token) return null;
    const session = await sessions.resolve(token);
    return session ? { userId: session.userId, email: session.email, role: session.role } : null;
  };
}
