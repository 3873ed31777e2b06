import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { type Logger, logAccess, loggablePath, requestIdOf, trustOneHop } from '@homereport/kit';
import { type Entry, answerFrom } from './public-cache.js';
import type { SharedRateLimit } from './rate-limit.js';
import { API_SECURITY_HEADERS } from './security-headers.js';

const SECURITY_HEADER_LIST = API_SECURITY_HEADERS.flat();

export interface KeptAnswersOptions {
  /** The kept answer for a URL that may be served as it is, or null. */
  peek: (url: string) => Entry | null;
  paths: ReadonlySet<string>;
  requestLimit: SharedRateLimit;
  logger: Logger;
  trustProxy: boolean;
}

/**
 * Answers a plain GET of a kept public answer (public-cache.ts) before Fastify sees it: the
 * requests most visitors make (the covered list, ZIP list pages) then cost about what a bare Node
 * server's answer costs, not a run through routing, hooks and reply.
 *
 * It does for these requests what the Fastify path does: the same request id rule, security
 * headers, per-client budget and access line, answering exactly as `publicCache.serve` would.
 * Anything else returns false and goes to Fastify untouched: another method or path, a body, an
 * Origin header (CORS is Fastify's), an answer not kept or not trusted without asking Redis, a
 * client over its budget (Fastify's path then answers the 429).
 */
export function keptAnswers(options: KeptAnswersOptions) {
  const { paths, peek, requestLimit, logger, trustProxy } = options;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const headers = req.headers;
    if (headers.origin !== undefined || headers['content-length'] !== undefined) return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    if (!paths.has(queryAt === -1 ? url : url.slice(0, queryAt))) return false;
    const entry = peek(url);
    if (entry === null) return false;
    const ip = trustProxy ? proxyAddr(req, trustOneHop) : (req.socket.remoteAddress ?? '');
    if (requestLimit.hit(ip) !== null) return false;

    const started = performance.now();
    const id = requestIdOf(headers);
    const answer = answerFrom(entry, headers, 'hit');
    // writeHead with a flat list skips setHeader's per-header bookkeeping, a measurable share of
    // an answer this small.
    res.writeHead(answer.status, [...SECURITY_HEADER_LIST, ...answer.headers, 'x-request-id', id]);
    res.end(answer.body);
    // Logged once written to the socket rather than on 'finish': one listener less per answer.
    logAccess(
      logger,
      {
        method: 'GET',
        path: loggablePath(url) ?? '',
        remoteAddress: ip,
        statusCode: answer.status,
        responseTimeMs: Math.round(performance.now() - started),
      },
      id,
    );
    return true;
  };
}
