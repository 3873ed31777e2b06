import { Agent, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { AppError, IDENTITY_HEADERS, INTERNAL_SECRET_HEADER, type Identity } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from 'http-proxy';

/** What a client gets when a service cannot be reached; sent by Fastify like any other error. */
export const upstreamUnavailable = () =>
  new AppError(
    503,
    'UPSTREAM_UNAVAILABLE',
    'This part of the service is temporarily unavailable. Please try again in a few seconds.',
    { retryAfterSeconds: 5 },
  );

/**
 * Streams a request to a service over a keep-alive connection. The body is never parsed here
 * (uploads stay streams). Identity arrives only from us: whatever the client sent under the
 * identity or secret header names is dropped before ours are set.
 *
 * The reply stays Fastify's until the service answers: only then is it handed to http-proxy
 * (hijacked, with the headers our hooks set), so a service that cannot be reached is answered
 * through Fastify's error handler like any other error.
 */
export function createProxy(internalSecret: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });
  // xfwd off: http-proxy would append to the client's own x-forwarded-for, letting anyone pick
  // the address that per-IP limits count. We set the header ourselves below.
  const proxy = httpProxy.createProxyServer({ agent, xfwd: false, proxyTimeout: 60_000 });
  const waiting = new WeakMap<IncomingMessage, FastifyReply>();
  // Emitted before http-proxy writes anything of the answer.
  proxy.on('proxyRes', (_proxyRes, raw) => {
    const reply = waiting.get(raw);
    if (reply === undefined) return;
    waiting.delete(raw);
    // Fastify does not send its headers once the reply is hijacked: they go on the raw response.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
    }
    reply.hijack();
  });

  return {
    forward(req: FastifyRequest, reply: FastifyReply, target: string, serviceName: string, identity: Identity | null) {
      const raw = req.raw;
      // req.ip is the socket address, or with TRUST_PROXY the client address our load balancer saw.
      setForwardHeaders(raw.headers, {
        internalSecret,
        requestId: req.id,
        ip: req.ip,
        protocol: req.protocol,
        host: req.host,
        identity,
      });
      waiting.set(raw, reply);
      proxy.web(raw, reply.raw, { target }, (err) => {
        waiting.delete(raw);
        // A service may answer before it read the whole body (413 over its limit, 401 for an
        // upload without a session) and close the connection; the broken pipe that follows is
        // not an outage, and its answer is the one the client gets.
        if (reply.sent) {
          req.log.debug({ err, service: serviceName }, 'service answered before reading the whole body');
          return;
        }
        // The client went away (closed the tab, aborted the upload): nobody to answer, nothing
        // broken. (Not `raw.destroyed`: a request is destroyed once its body was read whole.)
        if (reply.raw.destroyed || raw.socket?.destroyed === true) {
          req.log.debug({ service: serviceName }, 'client went away before the answer');
          reply.raw.destroy();
          return;
        }
        req.log.warn({ err, service: serviceName }, 'upstream unavailable');
        reply.send(upstreamUnavailable());
      });
    },
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}

/**
 * The headers a service trusts, set by us only: whatever the client sent under the identity or
 * secret header names is dropped first.
 */
export function setForwardHeaders(
  headers: IncomingHttpHeaders,
  to: {
    internalSecret: string;
    requestId: string;
    ip: string;
    protocol: string;
    host: string;
    identity: Identity | null;
  },
): void {
  for (const h of [...IDENTITY_HEADERS, INTERNAL_SECRET_HEADER]) delete headers[h];
  headers[INTERNAL_SECRET_HEADER] = to.internalSecret;
  headers['x-request-id'] = to.requestId;
  headers['x-forwarded-for'] = to.ip;
  headers['x-forwarded-proto'] = to.protocol;
  headers['x-forwarded-host'] = to.host;
  if (to.identity) {
    headers['x-user-id'] = to.identity.userId;
    headers['x-user-email'] = to.identity.email;
    headers['x-user-role'] = to.identity.role;
  }
}
