import type { FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import { ErrorReply, forbidden, unauthorized } from './errors.js';
import type { Identity } from './identity.js';

/**
 * Who may call a route: a signed-in user, an admin, or anyone with a session read when there is
 * one (`optional`). A route without `auth` is public.
 */
export type RouteAuth = 'user' | 'admin' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Declared once per route (`config: { auth: 'user' }`): the check and the OpenAPI `security` follow from it. */
    auth?: RouteAuth;
  }
}

/** The OpenAPI security scheme of a session: `Authorization: Bearer <token>`. */
export const BEARER_AUTH = 'bearerAuth';

/** Every service's security schemes, for its OpenAPI document (the gateway merges them). */
export const SECURITY_SCHEMES = {
  [BEARER_AUTH]: {
    type: 'http',
    scheme: 'bearer',
    description: 'The token from POST /api/auth/login or /api/auth/admin-login.',
  },
};

const securityOf = (auth: RouteAuth | undefined) => {
  if (auth === 'user' || auth === 'admin') return [{ [BEARER_AUTH]: [] }];
  // An empty requirement is "no credentials": the session is welcome, not needed.
  if (auth === 'optional') return [{}, { [BEARER_AUTH]: [] }];
  return [];
};

const signedIn: onRequestHookHandler = (req, _reply, done) => {
  done(req.identity ? undefined : unauthorized());
};
const adminOnly: onRequestHookHandler = (req, _reply, done) => {
  if (!req.identity) return done(unauthorized());
  done(req.identity.role === 'admin' ? undefined : forbidden('Admin access is required.'));
};

/**
 * Reads each route's `config.auth` as Fastify registers it and makes that one declaration
 * everything about the route's access, so a route cannot be checked one way and documented
 * another: the check (401 without a session, 403 for a non-admin), run before the body is read
 * or validated; the operation's `security` in the OpenAPI document (an empty list for a public
 * route, so the document says so rather than leaving it unsaid); and its 401/403 answers. A route
 * that sets `schema.security` itself (another scheme, like a webhook key) keeps it.
 */
export function declareRouteAuth(route: RouteOptions): void {
  if (route.schema?.hide) return;
  const auth = route.config?.auth;
  route.schema ??= {};
  const schema = route.schema as { security?: unknown; response?: Record<string, unknown> };
  schema.security ??= securityOf(auth);
  if (auth !== 'user' && auth !== 'admin') return;
  schema.response = { 401: ErrorReply, ...(auth === 'admin' ? { 403: ErrorReply } : {}), ...schema.response };
  const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
  route.onRequest = [auth === 'admin' ? adminOnly : signedIn, ...own];
}

/**
 * The signed-in caller of a route that declares `config: { auth: 'user' | 'admin' }` (so the
 * check already ran). A route that reads the caller without declaring it is a mistake its first
 * test finds: it answers 500 naming the route, rather than a 401 the document does not mention.
 */
export function requireUser(req: FastifyRequest): Identity {
  const auth = req.routeOptions.config.auth;
  if (auth !== 'user' && auth !== 'admin') {
    throw new Error(`${req.method} ${req.routeOptions.url} reads the caller but does not declare config.auth`);
  }
  if (!req.identity) throw unauthorized();
  return req.identity;
}

/** The admin calling a route that declares `config: { auth: 'admin' }`. */
export function requireAdmin(req: FastifyRequest): Identity {
  const identity = requireUser(req);
  if (identity.role !== 'admin') throw forbidden('Admin access is required.');
  return identity;
}
