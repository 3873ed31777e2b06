import { Agent, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, request } from 'node:http';
import { AppError, IDENTITY_HEADERS, INTERNAL_SECRET_HEADER, type Identity, hasBody } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceName, Upstreams } from './routes.js';

/** What a client gets when a service cannot be reached; sent by Fastify like any other error. */
export const upstreamUnavailable = () =>
  new AppError(
    503,
    'UPSTREAM_UNAVAILABLE',
    'This part of the service is temporarily unavailable. Please try again in a few seconds.',
    { retryAfterSeconds: 5 },
  );

/** Headers of one connection, not of the message: never passed on by a proxy (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Request headers never passed on: the client's connection's own (transfer-encoding stays, as the
 * body is sent on as it came) and the names only we may set.
 */
const NOT_FORWARDED = new Set<string>([
  ...[...HOP_BY_HOP].filter((name) => name !== 'transfer-encoding'),
  ...IDENTITY_HEADERS,
  INTERNAL_SECRET_HEADER,
]);

/** A service that sends nothing for this long is given up on (503 if it had not answered yet). */
const UPSTREAM_TIMEOUT_MS = 60_000;

/** How long a kept connection to a service may stay unused. */
const IDLE_CONNECTION_MS = 30_000;

/**
 * Streams a request to a service over a keep-alive connection and its answer back. The body is
 * never parsed here (uploads stay streams). Identity arrives only from us: whatever the client
 * sent under the identity or secret header names is dropped before ours are set.
 *
 * The answer goes out through Fastify's reply like any other (status, headers, the service's
 * body: whole when small, else as a stream), so our hooks' headers, the access line and the
 * error handler apply to it, and a service that cannot be reached is answered through the error
 * handler.
 */
export function createProxy(internalSecret: string, targets: Upstreams) {
  // An idle connection is closed here after 30 s, well before a service closes it (Fastify's
  // keep-alive timeout, 72 s): a request sent on a connection the service is closing at that
  // moment meets a reset, and a request with a body cannot be retried (503; seen in CI's fuzz).
  // Without `timeout` Node's agent keeps idle sockets until the service closes them.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000, timeout: IDLE_CONNECTION_MS });
  // Each service's address, parsed once rather than per request.
  const addresses = new Map(
    Object.entries(targets).map(([service, url]) => {
      const { hostname, port } = new URL(url);
      return [service as ServiceName, { hostname, port }];
    }),
  );

  return {
    /** Resolves with the reply once the service's answer is being sent (or the 503 instead). */
    forward(
      req: FastifyRequest,
      reply: FastifyReply,
      serviceName: ServiceName,
      identity: Identity | null,
    ): Promise<FastifyReply> {
      const { hostname, port } = addresses.get(serviceName) as { hostname: string; port: string };
      // req.ip is the socket address, or with TRUST_PROXY the client address our load balancer saw.
      const headers = forwardHeaders(req.headers, {
        internalSecret,
        requestId: req.id,
        ip: req.ip,
        protocol: req.protocol,
        host: req.host,
        identity,
      });
      return new Promise((resolve) => {
        let answered = false;
        const upstream = request({ hostname, port, method: req.method, path: req.url, headers, agent }, (res) => {
          answered = true;
          const answer = (body: IncomingMessage | Buffer | undefined) => resolve(withAnswerHead(reply, res).send(body));
          if (!isSmall(res)) {
            answer(res);
            return;
          }
          // A small answer of known length (most JSON answers) is read whole and sent as one buffer:
          // none of the per-answer stream plumbing a piped body needs. Its status and headers are
          // given only once it is whole: one that breaks off is a clean 503, not a truncated body.
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.once('end', () => {
            answer(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
          });
          // Reported below, by what the client gets, rather than by the stream's error.
          res.on('error', () => {});
          res.once('close', () => {
            if (res.complete) return;
            req.log.warn({ service: serviceName }, 'service answer broke off before its end');
            resolve(reply.send(upstreamUnavailable()));
          });
        });
        upstream.setTimeout(UPSTREAM_TIMEOUT_MS, () =>
          upstream.destroy(new Error(`${serviceName} sent nothing for ${UPSTREAM_TIMEOUT_MS} ms`)),
        );
        upstream.on('error', (err) => {
          // After the answer began: a service that answered before it read the whole body (413
          // over its limit, 401 for an upload without a session) and closed the connection, so
          // the rest of the body met a broken pipe; or its answer broke off midway, which the
          // answer's own handlers above pass on. Neither is an outage to report here.
          if (answered) {
            req.log.debug({ err, service: serviceName }, 'service connection ended after its answer began');
            return;
          }
          // The client went away (closed the tab, aborted the upload): nobody reads the answer
          // and nothing is broken. (Not `raw.destroyed`: a request is destroyed once its body was read whole.)
          if (req.raw.socket?.destroyed === true) {
            req.log.debug({ service: serviceName }, 'client went away before the answer');
          } else {
            req.log.warn({ err, service: serviceName }, 'upstream unavailable');
          }
          resolve(reply.send(upstreamUnavailable()));
        });
        // Most calls carry no body (GETs): nothing to stream, the call is complete as it is.
        if (!hasBody(req.headers)) {
          upstream.end();
          return;
        }
        // A client that goes away while still sending its body takes the service's call with it.
        req.raw.once('close', () => {
          if (!req.raw.complete) upstream.destroy(new Error('the client went away while sending its body'));
        });
        req.raw.pipe(upstream);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** Answers read whole before they are sent on: a declared length of at most this. */
const SMALL_ANSWER_BYTES = 64 * 1024;

function isSmall(res: IncomingMessage): boolean {
  const length = res.headers['content-length'];
  return length !== undefined && Number(length) <= SMALL_ANSWER_BYTES;
}

/**
 * The reply with a service's status and headers: all but those of its connection. They go over
 * ours of the same name, as its answer is the one given.
 */
function withAnswerHead(reply: FastifyReply, res: IncomingMessage): FastifyReply {
  reply.status(res.statusCode ?? 502);
  const given = res.headers;
  for (const name in given) {
    const value = given[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
  }
  return reply;
}

/**
 * The headers a service gets: the client's, less those of its connection and whatever it sent
 * under the identity or secret header names, plus ours, which the service trusts.
 */
export function forwardHeaders(
  given: IncomingHttpHeaders,
  to: {
    internalSecret: string;
    requestId: string;
    ip: string;
    protocol: string;
    host: string;
    identity: Identity | null;
  },
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name in given) if (!NOT_FORWARDED.has(name)) headers[name] = given[name];
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
  return headers;
}
