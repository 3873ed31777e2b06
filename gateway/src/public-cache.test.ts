import { EventEmitter } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CACHE_GENERATION_CHANNEL, type Redis, createLogger } from '@homereport/kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeRedis } from '../../test/support/fake-redis.js';
import { listenToAnnouncements } from './announcements.js';
import { type PublicCacheOptions, createPublicCache } from './public-cache.js';

/** Each page the same size, named by its query string, with a generation so it may be kept. */
const asked: string[] = [];
const service: Server = createServer((req, res) => {
  asked.push(req.url ?? '');
  res.writeHead(200, { 'content-type': 'application/json', 'x-cache-generation': 'cache:list=1' });
  res.end(JSON.stringify({ page: req.url, filler: 'x'.repeat(2000) }));
});
let app: FastifyInstance;

/** A public cache listening for bumps on `redis`; `close` stops listening. */
function publicCacheOn(redis: Redis, options: Pick<PublicCacheOptions, 'paths' | 'maxBytes'>) {
  const logger = createLogger({ name: 'public-cache-test', level: 'silent', format: 'json' });
  const announcements = listenToAnnouncements(redis, [CACHE_GENERATION_CHANNEL], logger);
  const cache = createPublicCache({
    redis,
    announcements,
    logger,
    internalSecret: 'internal-secret-for-tests',
    ...options,
  });
  return Object.assign(cache, { close: () => announcements.close() });
}

beforeAll(async () => {
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const cache = publicCacheOn(fakeRedis(), {
    paths: new Set(['/api/list']),
    // Room for two pages (plain, brotli and gzip copies), not three.
    maxBytes: 5000,
  });
  app = Fastify();
  app.get('/api/list', async (req, reply) => {
    if (!(await cache.serve(req, reply, '/api/list', target))) reply.status(599).send();
    return reply;
  });
  app.addHook('onClose', () => cache.close());
});
afterAll(async () => {
  await app.close();
  await new Promise((r) => service.close(r));
});

describe('the public cache', () => {
  it('is bounded by bytes and drops the least recently used page first', async () => {
    const get = async (page: string) => (await app.inject({ url: `/api/list?page=${page}` })).headers['x-cache'];
    expect(await get('a')).toBe('miss');
    expect(await get('b')).toBe('miss');
    expect(await get('a')).toBe('hit');
    // c pushes out b, the page least recently asked for, and keeps a.
    expect(await get('c')).toBe('miss');
    expect(await get('a')).toBe('hit');
    expect(await get('b')).toBe('miss');
    expect(asked).toEqual(['/api/list?page=a', '/api/list?page=b', '/api/list?page=c', '/api/list?page=b']);
  });
});

describe('the public cache while Redis is away', () => {
  it('serves what it keeps when the generation cannot be checked, instead of asking the service', async () => {
    const redis = fakeRedis();
    // Never subscribed (its connection lost), so every hit checks the generation in Redis.
    redis.duplicate = (() =>
      Object.assign(new EventEmitter(), {
        connect: async () => {
          throw new Error('Connection is closed.');
        },
        disconnect: () => {},
      })) as unknown as typeof redis.duplicate;
    const cache = publicCacheOn(redis, {
      paths: new Set(['/api/list']),
    });
    const target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const away = Fastify();
    away.get('/api/list', async (req, reply) => {
      if (!(await cache.serve(req, reply, '/api/list', target))) reply.status(503).send();
      return reply;
    });
    try {
      expect((await away.inject({ url: '/api/list?page=kept' })).headers['x-cache']).toBe('miss');
      redis.get = async () => {
        throw new Error('Command timed out');
      };
      const res = await away.inject({ url: '/api/list?page=kept' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('hit');
      // Any other failure is not an outage: the request goes the normal way.
      redis.get = async () => {
        throw new Error('a bug');
      };
      expect((await away.inject({ url: '/api/list?page=kept' })).statusCode).toBe(503);
    } finally {
      await away.close();
      await cache.close();
    }
  });
});

describe('the public cache while its service fails', () => {
  it('serves an answer past its age in place of a 5xx or an unreachable service, and only then', async () => {
    let failing = false;
    const flaky: Server = createServer((_req, res) => {
      if (failing) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
        res.end('{"error":"MongoDB is not answering"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-cache-generation': 'cache:list=1' });
      res.end('{"page":"kept"}');
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    let target = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    const cache = publicCacheOn(fakeRedis(), {
      paths: new Set(['/api/list']),
    });
    const stale = Fastify();
    stale.get('/api/list', async (req, reply) => {
      if (!(await cache.serve(req, reply, '/api/list', target))) reply.status(599).send();
      return reply;
    });
    try {
      expect((await stale.inject({ url: '/api/list?a' })).headers['x-cache']).toBe('miss');
      expect((await stale.inject({ url: '/api/list?a' })).headers['x-cache']).toBe('hit');
      // A write reaching the service drops what is kept: never served as current again (the
      // service is asked), but while the service fails it stands in.
      cache.written(target);
      failing = true;
      const standIn = await stale.inject({ url: '/api/list?a' });
      expect(standIn.statusCode).toBe(200);
      expect(standIn.headers['x-cache']).toBe('stale');
      expect(standIn.json()).toEqual({ page: 'kept' });
      // Nothing kept for this URL: the service's own 503 goes through, with its Retry-After.
      const passed = await stale.inject({ url: '/api/list?b' });
      expect(passed.statusCode).toBe(503);
      expect(passed.headers['retry-after']).toBe('5');
      // The service answering again: its answer, not the stand-in.
      failing = false;
      expect((await stale.inject({ url: '/api/list?a' })).headers['x-cache']).toBe('miss');
      failing = true;
      cache.written(target);
      // The service gone altogether (killed, restarting).
      await new Promise((r) => flaky.close(r));
      target = 'http://127.0.0.1:1';
      expect((await stale.inject({ url: '/api/list?a' })).headers['x-cache']).toBe('stale');
      // Nothing kept for this URL and the service unreachable: the 503 of an unreachable
      // service, not a second try through the proxy (599 here).
      expect((await stale.inject({ url: '/api/list?c' })).statusCode).toBe(503);
    } finally {
      await stale.close();
      await cache.close();
      if (flaky.listening) await new Promise((r) => flaky.close(r));
    }
  });
});
