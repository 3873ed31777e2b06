import { Agent, type IncomingMessage } from 'node:http';
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
      for (const h of [...IDENTITY_HEADERS, INTERNAL_SECRET_HEADER]) delete raw.headers[h];
      raw.headers[INTERNAL_SECRET_HEADER] = internalSecret;
      raw.headers['x-request-id'] = req.id;
      // req.ip is the socket address, or with TRUST_PROXY the client address our load balancer saw.
      raw.headers['x-forwarded-for'] = req.ip;
      raw.headers['x-forwarded-proto'] = req.protocol;
      raw.headers['x-forwarded-host'] = req.host;
      if (identity) {
        raw.headers['x-user-id'] = identity.userId;
        raw.headers['x-user-email'] = identity.email;
        raw.headers['x-user-role'] = identity.role;
      }
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
        res.statusCode = 503;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('retry-after', '5');
        res.end(
          JSON.stringify({
            error: 'This part of the service is temporarily unavailable. Please try again in a few seconds.',
            code: 'UPSTREAM_UNAVAILABLE',
          }),
        );
      });
    },
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}
