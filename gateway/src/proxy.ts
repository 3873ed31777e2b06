import { Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { IDENTITY_HEADERS, INTERNAL_SECRET_HEADER, type Identity } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from 'http-proxy';

/**
 * Streams a request to a service over a keep-alive connection. The body is never parsed here
 * (uploads stay streams). Identity arrives only from us: whatever the client sent under the
 * identity or secret header names is dropped before ours are set.
 */
export function createProxy(internalSecret: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });
  // xfwd off: http-proxy would append to the client's own x-forwarded-for, letting anyone pick
  // the address that per-IP limits count. We set the header ourselves below.
  const proxy = httpProxy.createProxyServer({ agent, xfwd: false, proxyTimeout: 60_000, timeout: 60_000 });
  // Requests the service already answered. A service may answer before it read the whole body
  // (413 over its limit, 401 for an upload without a session) and close the connection; the
  // broken pipe that follows is not an outage, and its answer is the one the client gets.
  const answered = new WeakSet<IncomingMessage>();
  proxy.on('proxyRes', (_proxyRes, req) => answered.add(req));

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
      // Headers set by our hooks (security headers, request id) are not sent by Fastify once
      // the reply is hijacked, so they are copied onto the raw response first.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
      }
      reply.hijack();
      proxy.web(raw, reply.raw, { target }, (err) => {
        const res = reply.raw;
        if (answered.has(raw)) {
          req.log.debug({ err, service: serviceName }, 'service answered before reading the whole body');
          return;
        }
        // The client went away (closed the tab, aborted the upload): nobody to answer, nothing
        // broken. (Not `raw.destroyed`: a request is destroyed once its body was read whole.)
        if (res.destroyed || res.writableEnded || raw.socket?.destroyed !== false) {
          req.log.debug({ service: serviceName }, 'client went away before the answer');
          res.destroy();
          return;
        }
        req.log.warn({ err, service: serviceName }, 'upstream unavailable');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        answerUnavailable(res);
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

/** The answer when a service cannot be reached (nothing of its answer was sent yet). */
export function answerUnavailable(res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('retry-after', '5');
  res.end(
    JSON.stringify({
      error: 'This part of the service is temporarily unavailable. Please try again in a few seconds.',
      code: 'UPSTREAM_UNAVAILABLE',
    }),
  );
}
