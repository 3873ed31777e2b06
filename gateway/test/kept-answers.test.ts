import { randomUUID } from 'node:crypto';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { logLineWith } from '../../test/support/logs.js';
import { keptAnswers } from '../src/kept-answers.js';
import type { Entry } from '../src/public-cache.js';
import { SharedRateLimit } from '../src/rate-limit.js';

const env = testEnv();

describe('kept public answers served before routing, through the real gateway', () => {
  it('carry the request id, the API security headers and an access line like any answer', async () => {
    await api('GET', '/api/requests/covered');
    const id = `kept-${randomUUID()}`;
    const res = await api('GET', '/api/requests/covered', { headers: { 'x-request-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-cache')).toBe('hit');
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Array.isArray(res.body.properties)).toBe(true);
    const line = await logLineWith('gateway', [id], 'the access line of the kept answer');
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      name: 'gateway',
      reqId: id,
      req: { method: 'GET', url: '/api/requests/covered' },
      statusCode: 200,
      msg: 'request completed',
    });
  });

  it('leave a cross-origin call to the normal path, which keeps CORS closed', async () => {
    await api('GET', '/api/requests/covered');
    const res = await api('GET', '/api/requests/covered', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('kept public answers and the request budget', () => {
  const redis = new Redis(env.redisUrl);
  const limit = new SharedRateLimit({ redis, prefix: `kept-test:${randomUUID()}:`, windowSeconds: 60, perWindow: 2 });
  const body = Buffer.from('{"items":[]}');
  const entry: Entry = {
    generationKey: 'k',
    generation: '1',
    contentType: 'application/json; charset=utf-8',
    etag: '"v1"',
    cacheControl: 'no-cache',
    body,
    br: body,
    gzip: body,
    until: Date.now() + 60_000,
  };
  const answer = keptAnswers({
    peek: (url) => (url.startsWith('/api/kept') ? entry : null),
    paths: new Set(['/api/kept']),
    requestLimit: limit,
    logger: createLogger({ name: 'kept-test', level: 'warn', format: 'json' }),
    trustProxy: false,
  });
  // What the gateway's Fastify path would answer; here only marks that the request went there.
  const server: Server = createServer((req, res) => {
    if (!answer(req, res)) res.writeHead(418).end('fastify');
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; cache: string | undefined }>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      request({ port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cache: res.headers['x-cache'] as string }));
      })
        .on('error', reject)
        .end();
    });
  afterAll(async () => {
    server.close();
    await limit.close();
    await redis.quit();
  });

  it('is spent by kept answers too; over it the request goes to the path that answers 429', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    expect(await get('/api/kept?page=1')).toEqual({ status: 200, cache: 'hit' });
    expect(await get('/api/kept', { 'if-none-match': '"v1"' })).toEqual({ status: 304, cache: 'hit' });
    expect((await get('/api/kept')).status).toBe(418);
    // Not kept, or not a plain GET: never answered here.
    expect((await get('/api/other')).status).toBe(418);
  });
});
