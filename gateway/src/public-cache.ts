import { promisify } from 'node:util';
import { constants, brotliCompress, gzip as gzipCallback } from 'node:zlib';
import { CACHE_GENERATION_HEADER, INTERNAL_SECRET_HEADER, type Redis, parseCacheGeneration } from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

interface Entry {
  generationKey: string;
  generation: string;
  contentType: string;
  body: Buffer;
  /** Compressed once per generation, for browsers that accept them. */
  br: Buffer;
  gzip: Buffer;
  /** Kept at most this long even if Redis never changes (a lost invalidation). */
  until: number;
}

export interface PublicCacheOptions {
  redis: Redis;
  internalSecret: string;
  /** Public GET paths (exact, without a query string) whose answers may be kept. */
  paths: ReadonlySet<string>;
  maxAgeMs?: number;
}

/**
 * Public answers the gateway keeps in memory and serves without calling the service, while the
 * generation the service named (kit's cache-generation.ts) is still the current one in Redis: one
 * small Redis GET per request instead of a proxied call. The service bumps the generation on every
 * change, so a change is visible at once on every gateway replica. Anything unusual (a query
 * string, Redis away, no generation header, a non-200) goes the normal way, through the service.
 */
export function createPublicCache(options: PublicCacheOptions) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry | null>>();
  const maxAgeMs = options.maxAgeMs ?? 60_000;

  const send = (req: FastifyRequest, reply: FastifyReply, entry: Entry, state: 'hit' | 'miss') => {
    reply.header('content-type', entry.contentType).header('x-cache', state).header('vary', 'accept-encoding');
    const accepted = String(req.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(entry.br);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
    return reply.send(entry.body);
  };

  /** Asks the service itself (not through the proxy) and keeps a cacheable answer. */
  async function load(req: FastifyRequest, path: string, target: string): Promise<Entry | null> {
    const res = await fetch(`${target}${path}`, {
      headers: {
        [INTERNAL_SECRET_HEADER]: options.internalSecret,
        'x-request-id': req.id,
        'x-forwarded-for': req.ip,
        accept: 'application/json',
      },
      signal: AbortSignal.timeout(10_000),
    });
    const body = Buffer.from(await res.arrayBuffer());
    const named = parseCacheGeneration(res.headers.get(CACHE_GENERATION_HEADER));
    if (res.status !== 200 || !named) return null;
    const entry: Entry = {
      generationKey: named.key,
      generation: named.generation,
      contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8',
      body,
      br: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: await gzip(body, { level: 6 }),
      until: Date.now() + maxAgeMs,
    };
    entries.set(path, entry);
    return entry;
  }

  return {
    /** Answers from the cache (true) or leaves the request to the proxy (false). */
    async serve(req: FastifyRequest, reply: FastifyReply, path: string, target: string): Promise<boolean> {
      if (req.method !== 'GET' || req.url.includes('?') || !options.paths.has(path)) return false;
      try {
        const entry = entries.get(path);
        if (entry && entry.until > Date.now()) {
          const current = (await options.redis.get(entry.generationKey)) ?? '0';
          if (current === entry.generation) {
            send(req, reply, entry, 'hit');
            return true;
          }
        }
        // One call to the service per path at a time, however many requests missed together.
        let pending = loading.get(path);
        if (!pending) {
          pending = load(req, path, target).finally(() => loading.delete(path));
          loading.set(path, pending);
        }
        const fresh = await pending;
        if (!fresh) return false;
        send(req, reply, fresh, 'miss');
        return true;
      } catch (err) {
        req.log.debug({ err, path }, 'public cache unavailable; proxying');
        return false;
      }
    },
  };
}
