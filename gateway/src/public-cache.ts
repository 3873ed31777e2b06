import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { constants, brotliCompress, gzip as gzipCallback } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import {
  CACHE_GENERATION_CHANNEL,
  CACHE_GENERATION_HEADER,
  type Logger,
  type Redis,
  etagMatches,
  parseCacheGeneration,
  unavailableDependency,
} from '@homereport/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Announcements } from './announcements.js';
import { getFromService, upstreamUnavailable } from './proxy.js';
import { serviceFor } from './routes.js';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

export interface Entry {
  generationKey: string;
  generation: string;
  contentType: string;
  /** The service's validator and caching rule, so browsers revalidate with the gateway as with it. */
  etag: string | null;
  cacheControl: string | null;
  body: Buffer;
  /** Compressed once per generation, for browsers that accept them. */
  br: Buffer;
  gzip: Buffer;
  /** Kept at most this long even if no bump is ever heard of (a lost invalidation); 0 once dropped. */
  until: number;
  /** Until then, a dropped or aged-out answer may still stand in for a failing service. */
  staleUntil: number;
}

/** A service's answer that may not be kept (no generation named, not a 200): sent on as it came. */
interface Passed {
  status: number;
  contentType: string;
  body: Buffer;
  retryAfter?: string | null;
}

export interface PublicCacheOptions {
  redis: Redis;
  /** Generation bumps (CACHE_GENERATION_CHANNEL), heard while subscribed. */
  announcements: Announcements;
  internalSecret: string;
  logger: Logger;
  /** Public GET paths (exact, without the query string) whose answers may be kept. */
  paths: ReadonlySet<string>;
  maxAgeMs?: number;
  /**
   * How long past its max age an answer may still stand in for its service when the service
   * fails (5xx or unreachable: MongoDB or Redis away, a restart): degrade, don't fall over.
   */
  staleIfErrorMs?: number;
  /** Bytes kept at most (each answer plain and compressed); the least recently used go first. */
  maxBytes?: number;
  maxQueryLength?: number;
}

/**
 * Public answers the gateway keeps in memory and serves without calling the service.
 *
 * The service names a generation (kit's cache-generation.ts) with each answer and bumps it on
 * every change, announcing the bump on a Redis channel. While this gateway is subscribed it
 * trusts what it keeps until it hears of a bump: a hit costs no Redis call and no service call.
 * While it is not (starting, Redis away, reconnecting), every hit first checks the generation
 * in Redis, as a replica without the channel would; on re-subscribing it forgets everything,
 * since bumps may have gone unheard. A write this gateway forwards to a service also drops that
 * service's answers as soon as the write is answered, so the writer's next read never races the
 * announcement.
 *
 * Anything unusual (Redis away, no generation header, a non-200) goes the normal way: the
 * service's answer is passed on and not kept.
 */
export function createPublicCache(options: PublicCacheOptions) {
  // Bounded by bytes, not count: a ZIP list page weighs a hundred times a short covered list.
  const entries = new LRUCache<string, Entry & { target: string }>({
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (entry, url) => entry.body.length + entry.br.length + entry.gzip.length + url.length,
  });
  const loading = new Map<string, Promise<Entry | Passed>>();
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const staleIfErrorMs = options.staleIfErrorMs ?? 10 * 60_000;
  const maxQueryLength = options.maxQueryLength ?? 256;
  // Bumped by every drop: a load that began before a drop may carry the old data, so it is
  // answered with but not kept.
  let epoch = 0;

  // A dropped answer is never served as current again, but stays (within the byte bound) as the
  // stand-in for a service that fails: on a site taking writes the covered list is dropped many
  // times a minute, so an outage would otherwise almost always find nothing kept.
  const forget = (keep: (entry: Entry & { target: string }) => boolean) => {
    epoch += 1;
    for (const [, entry] of entries.entries()) if (!keep(entry)) entry.until = 0;
  };

  const { announcements } = options;
  announcements.on(CACHE_GENERATION_CHANNEL, (key) => forget((entry) => entry.generationKey !== key));
  announcements.onResubscribed(() => forget(() => false));

  const send = (req: FastifyRequest, reply: FastifyReply, entry: Entry, state: CacheState) => {
    const answer = answerFrom(entry, req.headers, state);
    for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i] as string, answer.headers[i + 1]);
    return reply.status(answer.status).send(answer.body);
  };

  /** Asks the service itself (not through the proxy) and keeps a cacheable answer. */
  async function load(req: FastifyRequest, path: string, url: string, target: string): Promise<Entry | Passed> {
    const startedAt = epoch;
    // Uncompressed: the gateway compresses what it keeps itself.
    const { res, body } = await getFromService(req, {
      base: target,
      url,
      service: serviceFor(path) ?? 'unknown',
      route: path,
      internalSecret: options.internalSecret,
      timeoutMs: 10_000,
    });
    const contentType = res.headers.get('content-type') ?? 'application/json; charset=utf-8';
    const named = parseCacheGeneration(res.headers.get(CACHE_GENERATION_HEADER));
    if (res.status !== 200 || !named) {
      return { status: res.status, contentType, body, retryAfter: res.headers.get('retry-after') };
    }
    const entry: Entry = {
      generationKey: named.key,
      generation: named.generation,
      contentType,
      etag: res.headers.get('etag'),
      cacheControl: res.headers.get('cache-control'),
      body,
      br: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: await gzip(body, { level: 6 }),
      until: Date.now() + maxAgeMs,
      staleUntil: Date.now() + maxAgeMs + staleIfErrorMs,
    };
    if (epoch === startedAt) entries.set(url, { ...entry, target });
    return entry;
  }

  const isTrusted = (entry: Entry) => announcements.live && entry.until > Date.now();

  async function stillCurrent(entry: Entry): Promise<boolean> {
    if (entry.until <= Date.now()) return false;
    if (announcements.live) return true;
    try {
      return ((await options.redis.get(entry.generationKey)) ?? '0') === entry.generation;
    } catch (err) {
      // Redis away (its connection lost, so not subscribed either): degrade rather than fall
      // over. A service cannot bump a generation without Redis, so what is kept stays what it
      // last announced, served for the rest of its max age (at most 60 s).
      if (unavailableDependency(err) === 'redis') return true;
      throw err;
    }
  }

  return {
    /**
     * Answers from the cache or the service (true), or leaves the request to the proxy (false);
     * throws the 503 of an unreachable service when nothing kept can stand in.
     */
    async serve(req: FastifyRequest, reply: FastifyReply, path: string, target: string): Promise<boolean> {
      if (req.method !== 'GET' || !options.paths.has(path)) return false;
      const url = req.url;
      if (url.length - path.length > maxQueryLength) return false;
      try {
        const entry = entries.get(url);
        // Subscribed, a fresh entry is sent without awaiting anything.
        if (entry !== undefined && (isTrusted(entry) || (await stillCurrent(entry)))) {
          send(req, reply, entry, 'hit');
          return true;
        }
        // Aged out or dropped: it may still stand in if the service fails (stale-if-error).
        const fallback = entry !== undefined && entry.staleUntil > Date.now() ? entry : undefined;
        // One call to the service per URL at a time, however many requests missed together.
        let pending = loading.get(url);
        if (!pending) {
          pending = load(req, path, url, target).finally(() => loading.delete(url));
          loading.set(url, pending);
        }
        let fresh: Entry | Passed;
        try {
          fresh = await pending;
        } catch (err) {
          // The service could not be reached or did not answer in time: asking it again through
          // the proxy would only make the caller wait twice.
          if (fallback === undefined) throw new ServiceUnreachable(err);
          req.log.debug({ path, err }, 'public cache: service unreachable; serving the kept answer');
          send(req, reply, fallback, 'stale');
          return true;
        }
        if ('generation' in fresh) {
          send(req, reply, fresh, 'miss');
        } else if (fresh.status >= 500 && fallback !== undefined) {
          req.log.debug({ path, status: fresh.status }, 'public cache: service failing; serving the kept answer');
          send(req, reply, fallback, 'stale');
        } else {
          // A service's 503 tells when to try again: passed on with it.
          if (fresh.retryAfter) reply.header('retry-after', fresh.retryAfter);
          reply.status(fresh.status).header('content-type', fresh.contentType).send(fresh.body);
        }
        return true;
      } catch (err) {
        if (err instanceof ServiceUnreachable) {
          req.log.warn({ err: err.cause, path }, 'upstream unavailable');
          throw upstreamUnavailable();
        }
        req.log.debug({ err, path }, 'public cache unavailable; proxying');
        return false;
      }
    },

    /** A write to the service at `target` was answered: what it served before may be stale. */
    written(target: string) {
      forget((entry) => entry.target !== target);
    },
  };
}

/** A load that failed: answered like any unreachable service (503), not retried through the proxy. */
class ServiceUnreachable extends Error {
  constructor(cause: unknown) {
    super('service unreachable', { cause });
  }
}

/** What to send for a kept answer: 304 or 200, its headers as a flat list, the body to write. */
export interface KeptAnswer {
  status: 200 | 304;
  headers: readonly string[];
  body: Buffer | undefined;
}

/**
 * How a kept answer is sent: the service's ETag (304 on a match) and caching rule, the encoding
 * the client accepts. Header lists are built once per entry and variant.
 */
/** x-cache: kept and current, just loaded, or kept past its age standing in for a failing service. */
export type CacheState = 'hit' | 'miss' | 'stale';

export function answerFrom(entry: Entry, request: IncomingHttpHeaders, state: CacheState): KeptAnswer {
  const notModified = entry.etag !== null && etagMatches(request['if-none-match'], entry.etag);
  const encoding = notModified ? null : encodingFor(request['accept-encoding']);
  const variant = notModified ? '304' : (encoding ?? 'identity');
  return {
    status: notModified ? 304 : 200,
    headers: headerList(entry, variant, state),
    body: notModified ? undefined : encoding === null ? entry.body : entry[encoding],
  };
}

type Variant = 'identity' | 'br' | 'gzip' | '304';
const headerLists = new WeakMap<Entry, Map<string, string[]>>();

function headerList(entry: Entry, variant: Variant, state: CacheState): string[] {
  let lists = headerLists.get(entry);
  if (lists === undefined) {
    lists = new Map();
    headerLists.set(entry, lists);
  }
  const key = `${variant}:${state}`;
  let list = lists.get(key);
  if (list === undefined) {
    list = ['x-cache', state, 'vary', 'accept-encoding'];
    if (entry.cacheControl !== null) list.push('cache-control', entry.cacheControl);
    if (entry.etag !== null) list.push('etag', entry.etag);
    if (variant !== '304') {
      const body = variant === 'identity' ? entry.body : entry[variant];
      list.push('content-type', entry.contentType, 'content-length', String(body.length));
      if (variant !== 'identity') list.push('content-encoding', variant);
    }
    lists.set(key, list);
  }
  return list;
}

const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];
/** Browsers send a handful of distinct Accept-Encoding headers: each is negotiated once. */
const negotiated = new LRUCache<string, Encoding>({ max: 256 });

/**
 * The encoding of a kept answer to send for an Accept-Encoding header, q-values honoured; null
 * for identity (nothing sent, nothing acceptable, or identity preferred).
 */
export function encodingFor(accepted: string | undefined): 'br' | 'gzip' | null {
  if (accepted === undefined) return null;
  let chosen = negotiated.get(accepted);
  if (chosen === undefined) {
    // The negotiator maps `*` to the first supported value even when that one was refused by
    // name (`br;q=0, *`), so what the header refuses outright is not offered at all.
    const refused = refusedEncodings(accepted);
    const offered = ENCODINGS.filter((encoding) => !refused.has(encoding));
    chosen = negotiate<Encoding>(accepted, offered) ?? 'identity';
    negotiated.set(accepted, chosen);
  }
  return chosen === 'identity' ? null : chosen;
}

function refusedEncodings(accepted: string): Set<string> {
  const refused = new Set<string>();
  for (const part of accepted.split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name && q !== undefined && Number(q.slice(2)) === 0) refused.add(name);
  }
  return refused;
}
