import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyPluginOptions,
  type FastifyReply,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { requestMongoDeadline } from './connections/mongo-deadline.js';
import { unavailableDependency } from './dependency-errors.js';
import {
  type AnswerHeaders,
  RouteMethods,
  answerNoRoute,
  clientErrorAnswer,
  frameworkErrorAnswer,
} from './edge-refusals.js';
import { AppError, namedError } from './errors.js';
import { INTERNAL_SECRET_HEADER, type Identity, identityFromHeaders, secretMatches } from './identity.js';
import type { Infrastructure } from './infrastructure.js';
import { type Logger, logAccess, loggablePath } from './logger.js';
import { UNMATCHED_ROUTE, httpMetrics } from './metrics/http.js';
import { metricsEnabled, onScrape } from './metrics/registry.js';
import { Readiness } from './readiness.js';
import { bodyUnread, drainBody } from './request-body.js';
import { SECURITY_SCHEMES, declareRouteAuth } from './route-auth.js';
import { routeList } from './route-list.js';
import { tracesExported } from './tracing/export.js';
import { serverSpanEnder, traceFlushing, traceOfRequest, tracedChildLogger } from './tracing/http.js';
import { runInWork } from './work-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
    /**
     * How long all of a request's MongoDB operations together may take, from its arrival
     * (connections/mongo-deadline.ts); set by the mongoConnection plugin, none without MongoDB.
     */
    requestMongoBudgetMs: number | undefined;
  }
  interface FastifyRequest {
    identity: Identity | null;
    /**
     * The route its metrics and span are labelled with when Fastify's route is a catch-all (the
     * gateway's /api/* sets the pattern of the service it forwards to). Bounded values only.
     */
    routeLabel: string | null;
  }
}

export type ServiceApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Logger,
  TypeBoxTypeProvider
>;

/**
 * A plugin of a ServiceApp: routes typed by their TypeBox schemas, registered with
 * `app.register(plugin, options)`. Encapsulated unless wrapped in fastify-plugin.
 */
export type ServicePlugin<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsync<
  Options,
  RawServerDefault,
  TypeBoxTypeProvider,
  Logger
>;

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** When set, every route but health and the OpenAPI document requires this secret header. */
  internalSecret?: string;
  /** Behind the gateway (one proxy), so req.ip is the client address it forwarded. */
  trustProxy?: boolean;
  bodyLimit?: number;
  /** Closes a connection on which nothing arrives for this long (Fastify's connectionTimeout). */
  connectionTimeoutMs?: number;
  /**
   * false: handlers run in no work context (work-context.ts) unless traces are exported, when the
   * spans of their dependency calls need it. For a process that records no events and opens no
   * MongoDB (the gateway): its request lines name their trace through their logger already, and
   * entering a context per request is a cost with nothing to read it.
   */
  workContext?: boolean;
  /** Security schemes of the OpenAPI document beside the session's bearer token (a webhook key). */
  securitySchemes?: Record<string, unknown>;
  /**
   * Headers every answer carries, the framework's own refusals included (the gateway's security
   * headers): set first thing for each request, and on answers made before any hook runs.
   */
  answerHeaders?: AnswerHeaders;
}

/** The caller's request id (the gateway's, or an operator's) when it looks like one, else a new one. */
export function requestIdOf(headers: IncomingMessage['headers']): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** Trust one proxy hop: behind the gateway (or a load balancer), the address it forwarded. */
export const trustOneHop = (_address: string, hop: number) => hop === 0;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on its route's first
 * answer rather than at start. Fastify compiles one per route and status at start, each with an
 * Ajv instance of its own: in a service most are for admin or rare answers, and together they
 * held 1-3 MB of every idle process (bench:memory, Node 24). The first answer of a route pays the
 * compilation once (a few ms); a schema fast-json-stringify rejects fails that answer instead of
 * the start, and the route's tests answer it.
 */
const defaultSerializers = SerializerSelector();
const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultSerializers(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc) => {
      serialize ??= compile(route);
      return serialize(doc);
    };
  };
};

/**
 * Validators: bodies, path parameters and headers are not coerced (a number or object where a
 * string belongs is a 400, not silently "42"). Query strings are text by nature, so there a
 * schema's `integer` takes "42" as 42: `limit` is declared as the whole number from 1 to 100 it
 * is, and a route reads a number. The second Ajv is made when a route first has a query schema.
 */
const defaultValidators = AjvCompiler();
const queryValidators = AjvCompiler();
type ValidatorOf = (route: { httpPart?: string }) => unknown;
// The library's types split Ajv and JTD options into a union this (Ajv-only) wrapper need not spell out.
const validators = ((externalSchemas: never, options: { customOptions?: object }) => {
  const strict = defaultValidators(externalSchemas, options as never) as unknown as ValidatorOf;
  let coercing: ValidatorOf | undefined;
  return (route: { httpPart?: string }) => {
    if (route.httpPart !== 'querystring') return strict(route);
    coercing ??= queryValidators(externalSchemas, {
      ...options,
      customOptions: { ...options.customOptions, coerceTypes: true },
    } as never) as unknown as ValidatorOf;
    return coercing(route);
  };
}) as unknown as BuildCompilerFromPool;

const OPEN_PATHS = new Set(['/health/live', '/health/ready', '/openapi.json']);
/** When a client should try again after a dependency failed its call (the gateway's 503 says the same). */
const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * A Fastify app with the project's defaults: adopted request ids, the `{ error, code }` error
 * model, JSON 404s, liveness/readiness, gateway-only trust and an OpenAPI document built from
 * the route schemas. It never listens; server.ts does.
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const app = Fastify({
    loggerInstance: options.logger,
    requestIdHeader: false,
    // One access line per request (below), not Fastify's two: half the log volume at the same detail.
    logController: new LogController({ disableRequestLogging: true }),
    // Adopt the caller's id (the gateway's, or an operator's) only when it looks like an id.
    genReqId: (req) => requestIdOf(req.headers),
    // Every line of a request's logger names its W3C trace (tracing/http.ts).
    childLoggerFactory: tracedChildLogger,
    // One hop: the gateway sets x-forwarded-for to the client address it saw, so req.ip is that.
    trustProxy: options.trustProxy ? trustOneHop : false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...(options.connectionTimeoutMs !== undefined ? { connectionTimeout: options.connectionTimeoutMs } : {}),
    // No coercion but in query strings (validators, above).
    ajv: { customOptions: { removeAdditional: false, allErrors: false, coerceTypes: false } },
    schemaController: { compilersFactory: { buildValidator: validators, buildSerializer: lazySerializers } },
    // The framework's own refusals in our shape, with our headers, never quoting the path
    // (api.md "Malformed requests"; edge-refusals.ts).
    frameworkErrors: frameworkErrorAnswer(options.answerHeaders),
    clientErrorHandler: clientErrorAnswer(options.answerHeaders),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as ServiceApp;

  const readiness = new Readiness();
  app.decorate('readiness', readiness);
  if (metricsEnabled()) {
    // `dependency_up` from the first scrape, probes or none (a local run has none): without its
    // series no alert sees a dependency that was down from the start. Probes' runs count.
    const stopReporting = onScrape(() => readiness.runIfOlderThan(10_000));
    app.addHook('onClose', async () => {
      stopReporting();
    });
  }
  app.decorate('requestMongoBudgetMs', undefined);
  app.decorateRequest('identity', null);
  app.decorateRequest('routeLabel', null);

  // OpenAPI 3.1: its schemas are JSON Schema, so TypeBox's nullable unions pass through unchanged
  // and the gateway merges the services' documents into the public one (/api/openapi.json).
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `HomeReport ${options.name} service`, version: '1.0.0' },
      components: { securitySchemes: { ...SECURITY_SCHEMES, ...options.securitySchemes } as never },
    },
  });
  // Each route's access, its check and its `security`, from its `config.auth` (route-auth.ts).
  app.addHook('onRoute', declareRouteAuth);
  // Services only (they have a secret): the gateway has no internal side to list its routes on.
  if (options.internalSecret !== undefined) await app.register(routeList);

  // Which methods each path takes, for the 405 of a method it does not.
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (route) => routeMethods.record(route));
  registerRequestHooks(
    app,
    options.internalSecret,
    options.workContext !== false || tracesExported(),
    options.answerHeaders,
  );
  await app.register(traceFlushing);
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    // A QUERY without a Content-Type is refused before even the no-route answer runs: where no
    // route takes it, it is a method this path does not take, like any other.
    if ((error as FastifyError).code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' && req.is404) {
      return answerNoRoute(req, reply, routeMethods);
    }
    return answerError(error, req, reply);
  });
  app.setNotFoundHandler((req, reply) => answerNoRoute(req, reply, routeMethods));
  registerHealthRoutes(app);
  return app;
}

/** What a service's buildApp is given: its config, its logger and its opened connections. */
export interface BackendDeps<Config> {
  config: Config;
  logger: Logger;
  infra: Infrastructure;
}

/**
 * A service's app behind the gateway: the gateway's secret required on every route but health,
 * the client address it forwarded trusted, and the infrastructure's connections attached
 * (readiness, closing; Infrastructure.attach).
 */
export async function createBackendApp(
  options: Omit<ServiceAppOptions, 'trustProxy'> & { internalSecret: string },
  infra: Infrastructure,
): Promise<ServiceApp> {
  const app = await createServiceApp({ ...options, trustProxy: true });
  await infra.attach(app);
  return app;
}

/**
 * What the kit does at the start and at the end of every request, and around its handler, in one
 * hook each (a hook per concern cost the gateway measurably more per request):
 * - start: every answer carries its request id (and the app's answer headers); with a secret,
 *   every route but health and the OpenAPI document requires it, and only then is the caller's
 *   identity read from the gateway's headers; the request counts as in flight;
 * - handler: runs inside the request's work context (work-context.ts; unless the app has none):
 *   its trace, so events it records carry it, and with MongoDB its deadline (mongo-deadline.ts),
 *   counted from its arrival and ended by its answer. preHandler: after the body was read, whose
 *   stream callbacks would lose an earlier context; Fastify continues synchronously from `done`
 *   into the handler;
 * - end: one access line per answered request, its duration in the HTTP metrics, its server span
 *   ended; a line for each request the client gave up on.
 */
function registerRequestHooks(
  app: ServiceApp,
  internalSecret: string | undefined,
  workContext: boolean,
  answerHeaders: AnswerHeaders | undefined,
): void {
  const metrics = httpMetrics();
  const endSpan = serverSpanEnder();
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (answerHeaders)
      for (const [name, value] of answerHeaders(req.url, req.protocol === 'https')) reply.header(name, value);
    metrics?.started();
    if (internalSecret === undefined || OPEN_PATHS.has(req.routeOptions.url ?? '')) return done();
    if (!secretMatches(req.headers[INTERNAL_SECRET_HEADER] as string | undefined, internalSecret)) {
      // Identity headers are only believable from the gateway, so a direct call is refused outright.
      return done(new AppError(403, 'GATEWAY_ONLY', 'Requests must come through the gateway.'));
    }
    req.identity = identityFromHeaders(req.headers);
    done();
  });

  if (workContext) {
    app.addHook('preHandler', (req, reply, done) => {
      const budget = app.requestMongoBudgetMs;
      runInWork(
        {
          trace: traceOfRequest(req.raw),
          mongoDeadline: budget === undefined ? undefined : requestMongoDeadline(reply, budget),
        },
        done,
      );
    });
  }

  app.addHook('onResponse', (req, reply, done) => {
    // At the route's own level: health probes (logLevel warn) stay out of the info log.
    logAccess(req.log, {
      method: req.method,
      path: loggablePath(req.url) ?? '',
      remoteAddress: req.ip,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime),
    });
    if (metrics || endSpan) {
      const route = req.routeLabel ?? req.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics?.answered(req, reply, route);
      endSpan?.(req, reply, route);
    }
    done();
  });

  app.addHook('onRequestAbort', (req, done) => {
    metrics?.aborted();
    // Flat, as the access line is (logger.ts).
    req.log.info(
      { method: req.method, url: loggablePath(req.url), remoteAddress: req.ip },
      'request aborted by the client',
    );
    done();
  });
}

/** The `{ error, code }` answer of every error: ours, validation, Fastify's 4xx, an outage, a bug. */
async function answerError(error: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) {
  await drainUnreadBody(req, reply);
  if (error instanceof AppError) {
    if (error.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.extra.retryAfterSeconds));
    return reply.status(error.statusCode).send({
      error: error.message,
      code: error.code,
      ...(error.extra.details ? { details: error.extra.details } : {}),
    });
  }
  if (error.validation) {
    const details = error.validation.map((v) => {
      const field = fieldName(v.instancePath, v.params as Record<string, unknown>);
      return { field, message: rangeOf(req, error.validationContext, field) ?? v.message ?? 'is invalid' };
    });
    const first = details[0];
    const message = first ? `${first.field ? `${first.field}: ` : ''}${first.message}` : 'Invalid input.';
    return reply.status(400).send({ error: message, code: 'VALIDATION', details });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send({ error: clientMessage(error), code: error.code ?? 'BAD_REQUEST' });
  }
  const dependency = unavailableDependency(error);
  if (dependency) {
    // An outage, not a bug: readiness reports it; each call it fails is a warning naming it.
    req.log.warn({ err: error, dependency }, `${dependency} unavailable: ${namedError(error)}`);
    reply.header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return reply.status(503).send({
      error: 'Part of our service is not answering right now. Please try again in a few seconds.',
      code: 'DEPENDENCY_UNAVAILABLE',
    });
  }
  // Named: what failed (the route), and the error's type and message, so the line alone is actionable.
  const operation = `${req.method} ${req.routeOptions.url ?? loggablePath(req.url) ?? ''}`;
  req.log.error({ err: error, operation }, `${operation} failed: ${namedError(error)}`);
  return reply.status(status >= 500 ? status : 500).send({
    error: `Something went wrong on our side. Please try again later (request id ${req.id}).`,
    code: 'INTERNAL',
  });
}

/**
 * A refused value said in words from its schema, the same for every route, rather than Ajv's
 * "must be <= 100": a number in a range (query, path or body: `limit`, a report's figures), and a
 * query text of a fixed shape by its description (`zip`: "five digits, for example 78701").
 */
function rangeOf(req: FastifyRequest, part: string | undefined, field: string): string | null {
  if (part !== 'querystring' && part !== 'params' && part !== 'body') return null;
  const schema = req.routeOptions.schema?.[part] as
    | { properties?: Record<string, Record<string, unknown>> }
    | undefined;
  const property = schema?.properties?.[field];
  if (!property) return null;
  const { type, minimum, maximum, multipleOf, pattern, description } = property;
  // 100,000,000 grouped; a year (1700) or a small bound as it is.
  const n = (value: unknown) =>
    Math.abs(Number(value)) >= 10_000 ? Number(value).toLocaleString('en-US') : String(value);
  if (type === 'integer' && minimum !== undefined) {
    return maximum === undefined
      ? `must be a whole number of at least ${n(minimum)}`
      : `must be a whole number from ${n(minimum)} to ${n(maximum)}`;
  }
  if (type === 'number' && minimum !== undefined && maximum !== undefined) {
    const steps = multipleOf === undefined ? '' : ` in steps of ${multipleOf}`;
    return `must be a number from ${n(minimum)} to ${n(maximum)}${steps}`;
  }
  if (part === 'querystring' && type === 'string' && pattern !== undefined && typeof description === 'string') {
    return `must be ${description}`;
  }
  return null;
}

/**
 * An error answered before the request's body was read whole (too large, not JSON, no session
 * for an upload): Node and Fastify then close the connection, and closing a socket with unread
 * data resets it, which can destroy the answer on its way (the gateway saw a broken pipe, not our
 * 413). So the rest is read and dropped first (bounded), and the answer arrives with the
 * connection still usable.
 */
async function drainUnreadBody(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!bodyUnread(req)) return;
  const drained = await drainBody(req.raw);
  // Fastify marks these answers `connection: close`; once the body is read whole the
  // connection is reusable again, unless the caller asked to close it.
  const callerCloses = /close/i.test(String(req.headers.connection ?? ''));
  reply.header('connection', drained && !callerCloses ? 'keep-alive' : 'close');
}

/** Liveness, readiness and the OpenAPI document. */
function registerHealthRoutes(app: ServiceApp): void {
  // Probes arrive every few seconds from the gateway and orchestrators: not worth an info line each.
  app.get('/health/live', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true }, logLevel: 'warn' }, async (_req, reply) => {
    const result = await app.readiness.run();
    return reply.status(result.ready ? 200 : 503).send({ status: result.status, checks: result.checks });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

function fieldName(instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra = (params.missingProperty ?? params.additionalProperty) as string | undefined;
  return [path, extra].filter(Boolean).join('.');
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type.';
    default:
      return error.message;
  }
}
