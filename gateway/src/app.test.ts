import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  CACHE_GENERATION_CHANNEL,
  type ServiceApp,
  createLogger,
  enableMetrics,
  hashToken,
  scrape,
} from '@homereport/kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeRedis } from '../../test/support/fake-redis.js';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

const SECRET = 'internal-secret-for-inject-tests';
const BIG = 'x'.repeat(200 * 1024);
const COVERED = JSON.stringify({ properties: Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, city: 'Austin' })) });

/** One stub service for every upstream: remembers what reached it, answers like the real ones would. */
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let generation = 1;
const upstream: Server = createServer((req, res) => {
  const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
  seen.push(entry);
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    entry.body += chunk;
  });
  req.on('end', () => {
    if (req.url?.startsWith('/api/requests/echo')) {
      res.writeHead(201, { 'content-type': 'text/plain', 'x-service': 'requests', 'set-cookie': ['a=1', 'b=2'] });
      res.end(`got ${entry.body}`);
      return;
    }
    if (req.url?.startsWith('/api/requests/big')) {
      // Past the size the gateway reads whole: sent on as a stream, chunked when no length is given.
      const chunked = req.url.includes('chunked');
      res.writeHead(200, {
        'content-type': 'text/plain',
        'x-service': 'requests',
        ...(chunked ? {} : { 'content-length': String(BIG.length) }),
      });
      res.end(BIG);
      return;
    }
    if (req.url?.startsWith('/api/requests/refused')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Refused.', code: 'VALIDATION' }));
      return;
    }
    if (req.url?.startsWith('/api/requests/broken')) {
      // Promises 1,000 bytes, sends 10, and hangs up.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000', etag: '"broken"' });
      res.write('{"items":[');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (req.url?.startsWith('/api/requests/covered')) {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'x-cache-generation': `cache:covered=${generation}`,
        etag: `"covered-${generation}"`,
        'cache-control': 'no-cache',
      });
      res.end(COVERED);
      return;
    }
    // With its length, as Fastify answers a GET and the HEAD of it.
    const served = JSON.stringify({ served: req.url });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(served),
    });
    res.end(served);
  });
});
let upstreamUrl = '';
/** An address nothing listens on: the service is down. */
let downUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((r) => closed.close(r));
});
afterAll(() => new Promise((r) => upstream.close(r)));

let redis: ReturnType<typeof fakeRedis>;
let app: ServiceApp;
async function gateway(env: Record<string, string> = {}) {
  redis = fakeRedis();
  const config = loadGatewayConfig({
    INTERNAL_SECRET: SECRET,
    REDIS_URL: 'redis://127.0.0.1:1',
    AUTH_URL: upstreamUrl,
    REQUESTS_URL: upstreamUrl,
    FILES_URL: upstreamUrl,
    ZIPCODES_URL: upstreamUrl,
    LEADS_URL: upstreamUrl,
    NOTIFICATIONS_URL: downUrl,
    WEB_DIST: '/nonexistent-web-dist',
    ...env,
  });
  const logger = createLogger({ name: 'gateway-inject-test', level: 'silent', format: 'json' });
  app = await buildGateway({ config, logger, redis });
  await app.ready();
  return app;
}
/** A signed-in session as auth stores it. */
function session(token: string, role: 'user' | 'admin') {
  const hash = hashToken(token);
  const now = Date.now();
  redis.values.set(
    `session:${hash}`,
    JSON.stringify({
      userId: `u-${role}`,
      email: `${role}@example.test`,
      role,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 3_600_000).toISOString(),
    }),
  );
}

beforeEach(() => {
  seen.length = 0;
  generation = 1;
});
afterEach(() => app?.close());

describe('request ids', () => {
  it('passes a caller’s id through to the service and back', async () => {
    await gateway();
    const res = await app.inject({ url: '/api/requests/mine', headers: { 'x-request-id': 'trace-42.a' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-42.a');
    expect(seen[0]?.headers['x-request-id']).toBe('trace-42.a');
  });

  it('makes a new one when none is sent or the sent one does not look like an id', async () => {
    await gateway();
    for (const headers of [{}, { 'x-request-id': 'no spaces <allowed>' }]) {
      const res = await app.inject({ url: '/api/requests/mine', headers });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.at(-1)?.headers['x-request-id']).toBe(res.headers['x-request-id']);
    }
  });
});

describe('security headers', () => {
  it('API answers get the API list; pages get the page list', async () => {
    await gateway();
    const api = await app.inject({ url: '/api/requests/mine' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['x-frame-options']).toBe('DENY');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    const page = await app.inject({ url: '/properties' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('HSTS', () => {
  it('is sent only on requests that came over TLS: never over plain http', async () => {
    await gateway();
    for (const url of ['/api/requests/mine', '/properties']) {
      const plain = await app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expect(plain.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('with TRUST_PROXY, when the load balancer says the request came over https', async () => {
    await gateway({ TRUST_PROXY: 'true' });
    const https = await app.inject({ url: '/api/requests/mine', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const http = await app.inject({ url: '/properties', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('methods a path does not take (api.md "Malformed requests")', () => {
  it('the gateway’s own paths answer 405 with Allow, in the error shape with the API headers', async () => {
    await gateway();
    const trace = await app.inject({ method: 'TRACE', url: '/api/health' });
    expect(trace.statusCode).toBe(405);
    expect(trace.headers.allow).toBe('GET, HEAD');
    expect(trace.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expect(trace.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const query = await app.inject({ method: 'QUERY' as 'GET', url: '/api/zipcodes' });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe('GET, HEAD');
    const page = await app.inject({ method: 'POST', url: '/dashboard' });
    expect(page.statusCode).toBe(405);
    expect(page.headers.allow).toBe('GET, HEAD');
  });

  it('other methods reach the service that owns the path, which says which it takes', async () => {
    await gateway();
    seen.length = 0;
    await app.inject({ method: 'TRACE', url: '/api/requests/mine' });
    expect(seen.at(-1)?.method).toBe('TRACE');
  });

  it('an unknown /api path is a 404 that does not quote it', async () => {
    await gateway();
    const res = await app.inject({ url: '/api/nope-<b>x</b>' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'There is nothing at this address.', code: 'NOT_FOUND' });
  });
});

describe('CORS', () => {
  const preflight = {
    method: 'OPTIONS' as const,
    url: '/api/requests/mine',
    headers: { origin: 'https://partner.example', 'access-control-request-method': 'GET' },
  };

  it('is closed unless origins are configured: no allow-origin header, no preflight', async () => {
    await gateway();
    const res = await app.inject({ url: '/api/requests/mine', headers: { origin: 'https://partner.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // The preflight goes on to the service like any call (which has no OPTIONS route): no grant.
    const pre = await app.inject(preflight);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('lets a configured origin in, and only that one', async () => {
    await gateway({ CORS_ORIGINS: 'https://partner.example' });
    const pre = await app.inject(preflight);
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://partner.example');
    const res = await app.inject({ url: '/api/requests/mine', headers: { origin: 'https://partner.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://partner.example');
    const other = await app.inject({ url: '/api/requests/mine', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('forwarded and identity headers', () => {
  it('the service sees ours only: client-sent identity and secret are dropped', async () => {
    await gateway();
    await app.inject({
      url: '/api/requests/mine',
      remoteAddress: '203.0.113.9',
      headers: {
        'x-user-role': 'admin',
        'x-user-id': 'forged',
        'x-internal-secret': 'guess',
        'x-forwarded-for': '1.2.3.4',
      },
    });
    const headers = seen[0]?.headers ?? {};
    expect(headers['x-user-role']).toBeUndefined();
    expect(headers['x-user-id']).toBeUndefined();
    expect(headers['x-internal-secret']).toBe(SECRET);
    expect(headers['x-forwarded-for']).toBe('203.0.113.9');
  });

  it('a signed-in caller reaches the service as themselves, with no-store on the answer', async () => {
    await gateway();
    session('user-token', 'user');
    const res = await app.inject({ url: '/api/requests/mine', headers: { authorization: 'Bearer user-token' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(seen[0]?.headers['x-user-id']).toBe('u-user');
    expect(seen[0]?.headers['x-user-role']).toBe('user');
  });
});

describe('forwarding', () => {
  it('streams the body through and gives the service’s status, headers and body back; connection headers stay behind', async () => {
    await gateway();
    const res = await app.inject({
      method: 'POST',
      url: '/api/requests/echo?x=1',
      headers: { 'content-type': 'text/plain', 'proxy-authorization': 'Basic eA==', te: 'trailers' },
      payload: 'a body',
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('got a body');
    expect(res.headers['x-service']).toBe('requests');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/requests/echo?x=1', body: 'a body' });
    expect(seen[0]?.headers['proxy-authorization']).toBeUndefined();
    expect(seen[0]?.headers.te).toBeUndefined();
  });
});

describe('answers of every size', () => {
  it('large answers, of known length or chunked, reach the client whole', async () => {
    await gateway();
    for (const url of ['/api/requests/big', '/api/requests/big?chunked=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-service']).toBe('requests');
      expect(res.body).toBe(BIG);
    }
  });

  it('a HEAD gets the headers of the GET, its length included, and no body', async () => {
    await gateway();
    const get = await app.inject({ url: '/api/requests/p1' });
    const head = await app.inject({ method: 'HEAD', url: '/api/requests/p1' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('a small answer that breaks off midway is a 503 with Retry-After, nothing of the broken answer', async () => {
    await gateway();
    const res = await app.inject({ url: '/api/requests/broken' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('admin paths', () => {
  it('are refused before any service is asked: 401 anonymous (however spelled), 403 for a user, through for an admin', async () => {
    await gateway();
    session('user-token', 'user');
    session('admin-token', 'admin');
    for (const url of ['/api/admin/requests', '/api/ADMIN/requests', '/api/%61dmin/nothing-here']) {
      expect((await app.inject({ url })).statusCode).toBe(401);
    }
    const user = await app.inject({ url: '/api/admin/requests', headers: { authorization: 'Bearer user-token' } });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(seen).toHaveLength(0);
    const admin = await app.inject({ url: '/api/admin/requests', headers: { authorization: 'Bearer admin-token' } });
    expect(admin.statusCode).toBe(200);
    expect(seen[0]?.headers['x-user-role']).toBe('admin');
  });
});

describe('the request budget', () => {
  it('answers 429 with Retry-After past the budget, per client address, kept answers included', async () => {
    await gateway({ RATE_LIMIT_PER_MINUTE: '3' });
    const from = (remoteAddress: string, url = '/api/requests/mine') => app.inject({ url, remoteAddress });
    expect((await from('198.51.100.1')).statusCode).toBe(200);
    expect((await from('198.51.100.1', '/api/requests/covered')).statusCode).toBe(200);
    expect((await from('198.51.100.1', '/api/requests/covered')).headers['x-cache']).toBe('hit');
    const over = await from('198.51.100.1', '/api/requests/covered');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(55);
    expect(over.json()).toEqual({
      error: 'Too many requests. Please slow down and try again shortly.',
      code: 'RATE_LIMITED',
    });
    expect(over.headers['x-request-id']).toBeDefined();
    expect((await from('198.51.100.2')).statusCode).toBe(200);
  });
});

describe('kept public answers', () => {
  const covered = (headers: Record<string, string> = {}) => app.inject({ url: '/api/requests/covered', headers });

  it('are served without the service once kept, in the encoding the client accepts (q-values honoured)', async () => {
    await gateway();
    expect((await covered()).headers['x-cache']).toBe('miss');
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['gzip;q=0.5, br;q=0.2', 'gzip'],
      ['br;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, expected] of cases) {
      const res = await covered(accept === undefined ? {} : { 'accept-encoding': accept });
      expect({ accept, encoding: res.headers['content-encoding'] }).toEqual({ accept, encoding: expected });
      expect(res.headers['x-cache']).toBe('hit');
      expect(res.headers.vary).toBe('accept-encoding');
      const raw = res.rawPayload;
      const body = expected === 'br' ? brotliDecompressSync(raw) : expected === 'gzip' ? gunzipSync(raw) : raw;
      expect(body.toString()).toBe(COVERED);
      expect(Number(res.headers['content-length'])).toBe(raw.length);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(seen).toHaveLength(1);
    expect((await covered({ 'if-none-match': '"covered-1"' })).statusCode).toBe(304);
  });

  it('are dropped when the service announces a new generation, and when a write reaches it', async () => {
    await gateway();
    await covered();
    expect((await covered()).headers['x-cache']).toBe('hit');
    generation = 2;
    redis.announce(CACHE_GENERATION_CHANNEL, 'cache:covered');
    const fresh = await covered();
    expect(fresh.headers['x-cache']).toBe('miss');
    expect(fresh.headers.etag).toBe('"covered-2"');
    expect(seen).toHaveLength(2);
    // Another key's bump leaves it alone.
    redis.announce(CACHE_GENERATION_CHANNEL, 'cache:other');
    expect((await covered()).headers['x-cache']).toBe('hit');
    // A user's own list (saved reports) is in that service but in no public list: kept.
    await app.inject({ method: 'PUT', url: '/api/users/saved/p1' });
    expect((await covered()).headers['x-cache']).toBe('hit');
    // Writes refused, by the service (400) or by the gateway (401 on an admin path), changed nothing: kept.
    expect((await app.inject({ method: 'POST', url: '/api/requests/refused', payload: { a: 1 } })).statusCode).toBe(
      400,
    );
    expect((await app.inject({ method: 'POST', url: '/api/admin/requests/r1/status' })).statusCode).toBe(401);
    expect((await covered()).headers['x-cache']).toBe('hit');
    // A write forwarded to the owning service drops it once answered.
    await app.inject({ method: 'POST', url: '/api/requests', payload: { a: 1 } });
    expect((await covered()).headers['x-cache']).toBe('miss');
  });
});

describe('metrics of refused calls', () => {
  it('label a 429 and a 413 with the routing entry they were bound for, not the catch-all', async () => {
    enableMetrics('gateway');
    await gateway({ RATE_LIMIT_PER_MINUTE: '1', BODY_LIMIT_BYTES: '1024' });
    const tooLarge = await app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: { 'content-type': 'application/json', 'content-length': '5000' },
      payload: 'x'.repeat(5000),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect((await app.inject({ url: '/api/zipcodes/78701' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/zipcodes/78702' })).statusCode).toBe(429);
    const text = await scrape();
    const count = (route: string, status: string) =>
      text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_request_duration_seconds_count{') &&
            l.includes(`route="${route}"`) &&
            l.includes(`status_code="${status}"`),
        );
    expect(count('/api/requests/*', '413')).toMatch(/ 1$/);
    expect(count('/api/zipcodes/*', '429')).toMatch(/ 1$/);
    expect(count('/api/*', '429')).toBeUndefined();
  });
});

describe('a service that cannot be reached', () => {
  it('answers 503 with Retry-After, the error body and the usual headers', async () => {
    await gateway();
    const res = await app.inject({ url: '/api/contact', headers: { 'x-request-id': 'down-1' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(res.headers['x-request-id']).toBe('down-1');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
