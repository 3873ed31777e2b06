import cors from '@fastify/cors';
import {
  AppError,
  type Identity,
  type Logger,
  type Redis,
  type ServiceApp,
  SessionStore,
  createServiceApp,
  forbidden,
  notFound,
  registerRedis,
  splitList,
  tooManyRequests,
  unauthorized,
} from '@homereport/kit';
import type { FastifyRequest } from 'fastify';
import { refuseOversizedBody } from './body-limit.js';
import type { GatewayConfig } from './config.js';
import { answerWhileDraining, bodyUnread } from './early-answer.js';
import { fastLane } from './fast-lane.js';
import { cachedHealth, servicesHealth } from './health.js';
import { keptAnswers } from './kept-answers.js';
import { createProxy } from './proxy.js';
import { createPublicCache } from './public-cache.js';
import { SharedRateLimit } from './rate-limit.js';
import { FAST_LANE, PUBLIC_CACHEABLE, type ServiceName, isAdminPath, serviceFor, upstreams } from './routes.js';
import { securityHeadersFor } from './security-headers.js';
import { registerWebApp } from './web.js';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  redis: Redis;
}

export async function buildGateway({ config, logger, redis }: GatewayDeps): Promise<ServiceApp> {
  const requestLimit = new SharedRateLimit({
    redis,
    prefix: 'ratelimit:gw:',
    windowSeconds: 60,
    perWindow: config.RATE_LIMIT_PER_MINUTE,
  });
  // Public answers kept here while the owning service's cache generation holds (public-cache.ts),
  // served before Fastify's routing when they can be (kept-answers.ts).
  const publicCache = createPublicCache({
    redis,
    logger,
    internalSecret: config.INTERNAL_SECRET,
    paths: PUBLIC_CACHEABLE,
  });
  const targets = upstreams(config);
  const kept = keptAnswers({
    peek: publicCache.peek,
    paths: PUBLIC_CACHEABLE,
    requestLimit,
    logger,
    trustProxy: config.TRUST_PROXY,
  });
  // Inbound lead posts forwarded before routing (fast-lane.ts).
  const lane = fastLane({
    targets: new Map([...FAST_LANE].map((path) => [path, targets[serviceFor(path) as ServiceName]])),
    internalSecret: config.INTERNAL_SECRET,
    requestLimit,
    logger,
    trustProxy: config.TRUST_PROXY,
  });
  const app = await createServiceApp({
    name: 'gateway',
    logger,
    trustProxy: config.TRUST_PROXY,
    answerFirst: (req, res) => kept(req, res) || lane(req, res),
  });
  registerRedis(app, redis);
  const sessions = new SessionStore(redis);
  const healthLimit = new SharedRateLimit({
    redis,
    prefix: 'ratelimit:gw-health:',
    windowSeconds: 60,
    perWindow: config.HEALTH_RATE_LIMIT_PER_MINUTE,
  });
  const proxy = createProxy(config.INTERNAL_SECRET);
  // Writes to these services can change what the public cache keeps.
  const cacheOwners = new Set([...PUBLIC_CACHEABLE].map((path) => serviceFor(path)));
  app.addHook('onClose', async () => {
    proxy.close();
    lane.close();
    await Promise.all([publicCache.close(), requestLimit.close(), healthLimit.close()]);
  });

  // On the raw response, so answers the proxy writes straight through carry them too.
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of securityHeadersFor(req.url)) reply.raw.setHeader(name, value);
    done();
  });
  const origins = splitList(config.CORS_ORIGINS);
  await app.register(cors, { origin: origins.length > 0 ? origins : false, credentials: false });

  // Any route, before anything else: a declared body over the limit is refused without reading it.
  const bodyLimits = {
    defaultBytes: config.BODY_LIMIT_BYTES,
    uploadBytes: config.UPLOAD_BODY_LIMIT_BYTES,
    importBytes: config.IMPORT_BODY_LIMIT_BYTES,
  };
  app.addHook('onRequest', async (req, reply) => {
    try {
      refuseOversizedBody(req.url.split('?')[0] ?? '', req.headers, bodyLimits);
    } catch (err) {
      return answerWhileDraining(req, reply, err as AppError);
    }
  });

  // Bodies stream through to the services untouched: nothing here parses them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));

  const resolveIdentity = async (req: FastifyRequest): Promise<Identity | null> => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) return null;
    const session = await sessions.resolve(match[1]);
    return session ? { userId: session.userId, email: session.email, role: session.role } : null;
  };

  // Each answer fans out to every service and their dependencies: asked at most every 1.5 s,
  // limited per client, and not logged at info (probes call it every few seconds).
  const health = cachedHealth(() => servicesHealth(targets));
  app.get('/api/health', { logLevel: 'warn' }, async (req, reply) => {
    const wait = healthLimit.hit(req.ip);
    if (wait !== null) throw tooManyRequests(wait, 'Too many health checks. Please slow down.');
    const { ok, body } = await health();
    if (!ok) reply.header('retry-after', '5');
    return reply.status(ok ? 200 : 503).send(body);
  });

  app.all('/api/*', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    try {
      const wait = requestLimit.hit(req.ip);
      if (wait !== null) throw tooManyRequests(wait, 'Too many requests. Please slow down and try again shortly.');
      const identity = await resolveIdentity(req);
      // A signed-in caller's answers, and auth's (they hand out tokens), are nobody else's: no
      // browser or shared cache may keep them (ASVS 8.2.1). On the raw response, like the security
      // headers, so an answer the proxy streams through carries it too.
      if (identity || path.startsWith('/api/auth/')) reply.raw.setHeader('cache-control', 'no-store');
      // Before routing: an unserved admin path answers 401/403 like a served one, never 404.
      if (isAdminPath(path)) {
        if (!identity) throw unauthorized();
        if (identity.role !== 'admin') throw forbidden('Admin access is required.');
      }
      const service = serviceFor(path);
      if (!service) throw notFound(`No API route for ${req.method} ${path}.`);
      const target = targets[service];
      if (await publicCache.serve(req, reply, path, target)) return reply;
      if (cacheOwners.has(service) && req.method !== 'GET' && req.method !== 'HEAD') {
        reply.raw.once('finish', () => publicCache.written(target));
      }
      proxy.forward(req, reply, target, service, identity);
    } catch (err) {
      // Refused before the body was read (an upload without a session): the answer must survive.
      if (err instanceof AppError && bodyUnread(req)) return answerWhileDraining(req, reply, err);
      throw err;
    }
  });

  // The built web app: precompressed, hashed assets cached for a year, SPA fallback (web.ts).
  await registerWebApp(app, config.WEB_DIST, logger);
  return app;
}
