import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { logLineWith } from '../../test/support/logs.js';
import { FAST_LANE_MAX_BODY, fastLane } from '../src/fast-lane.js';
import { SharedRateLimit } from '../src/rate-limit.js';

const env = testEnv();

describe('inbound lead posts forwarded before routing, through the real gateway', () => {
  it('reach the leads service and come back with its answer, the request id, API headers and an access line', async () => {
    const id = `lane-${randomUUID()}`;
    const res = await api('POST', '/api/webhooks/leads', {
      body: { lead_id: 'no-key', email: 'a@example.test' },
      headers: { 'x-request-id': id },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const line = await logLineWith('gateway', [id, 'request completed'], 'the access line of the forwarded post');
    expect(JSON.parse(line)).toMatchObject({
      reqId: id,
      req: { method: 'POST', url: '/api/webhooks/leads' },
      statusCode: 401,
    });
  });
});

describe('the fast lane', () => {
  const redis = new Redis(env.redisUrl);
  const limit = new SharedRateLimit({
    redis,
    prefix: `lane-test:${randomUUID()}:`,
    windowSeconds: 60,
    perWindow: 1000,
  });
  const tight = new SharedRateLimit({ redis, prefix: `lane-tight:${randomUUID()}:`, windowSeconds: 60, perWindow: 1 });
  const seen: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
  // The service: echoes what it received.
  const service: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ headers: req.headers, body, url: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'application/json', 'x-service': 'leads' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  const logger = createLogger({ name: 'lane-test', level: 'silent', format: 'json' });
  const servers: Server[] = [];
  /** A gateway stand-in: the lane first, and 418 where the Fastify path would take over. */
  function gatewayWith(target: string, budget = limit) {
    const lane = fastLane({
      targets: new Map([['/api/webhooks/leads', target]]),
      internalSecret: 'internal-secret-for-test',
      requestLimit: budget,
      logger,
      trustProxy: false,
    });
    const server = createServer((req, res) => {
      if (!lane(req, res)) {
        req.resume();
        res.writeHead(418).end('fastify');
      }
    });
    servers.push(server);
    return new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
  }
  const send = (
    port: number,
    options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
  ) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const body = options.body ?? '{"lead_id":"1"}';
      const req = request(
        {
          port,
          method: options.method ?? 'POST',
          path: options.path ?? '/api/webhooks/leads',
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            ...options.headers,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let servicePort = 0;
  let port = 0;

  beforeAll(async () => {
    servicePort = await new Promise<number>((r) =>
      service.listen(0, '127.0.0.1', () => r((service.address() as AddressInfo).port)),
    );
    port = await gatewayWith(`http://127.0.0.1:${servicePort}`);
  });
  afterAll(async () => {
    for (const s of [service, ...servers]) s.close();
    await Promise.all([limit.close(), tight.close()]);
    await redis.quit();
  });

  it('forwards the body whole with our headers only, and the answer with its length', async () => {
    const body = JSON.stringify({ lead_id: 'x', note: 'é'.repeat(1000) });
    const res = await send(port, {
      body,
      path: '/api/webhooks/leads?source=test',
      headers: { 'x-user-id': 'spoofed', 'x-user-role': 'admin', 'x-internal-secret': 'guess', 'x-request-id': 'r-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"ok":true}');
    expect(res.headers['content-length']).toBe('11');
    expect(res.headers['x-service']).toBe('leads');
    expect(res.headers['x-request-id']).toBe('r-1');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const got = seen.at(-1);
    expect(got?.url).toBe('/api/webhooks/leads?source=test');
    expect(got?.body).toBe(body);
    expect(got?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got?.headers['x-internal-secret']).toBe('internal-secret-for-test');
    expect(got?.headers['x-request-id']).toBe('r-1');
    expect(got?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(got?.headers['x-user-id']).toBeUndefined();
    expect(got?.headers['x-user-role']).toBeUndefined();
  });

  it('leaves everything else to the normal path', async () => {
    const before = seen.length;
    expect((await send(port, { method: 'PUT' })).status).toBe(418);
    expect((await send(port, { path: '/api/webhooks/other' })).status).toBe(418);
    expect((await send(port, { headers: { origin: 'https://ads.example' } })).status).toBe(418);
    expect((await send(port, { headers: { authorization: 'Bearer x' } })).status).toBe(418);
    expect((await send(port, { body: 'x'.repeat(FAST_LANE_MAX_BODY + 1) })).status).toBe(418);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/api/webhooks/leads' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"lead_id":');
      req.end('"2"}');
    });
    expect(chunked).toBe(418);
    expect(seen.length).toBe(before);
  });

  it('leaves a client over its budget to the normal path (which answers 429)', async () => {
    const budgeted = await gatewayWith(`http://127.0.0.1:${servicePort}`, tight);
    expect((await send(budgeted, {})).status).toBe(200);
    expect((await send(budgeted, {})).status).toBe(418);
  });

  it('answers 503 with a retry hint when the service cannot be reached', async () => {
    const closed = createServer();
    const deadPort = await new Promise<number>((r) =>
      closed.listen(0, '127.0.0.1', () => r((closed.address() as AddressInfo).port)),
    );
    closed.close();
    const orphan = await gatewayWith(`http://127.0.0.1:${deadPort}`);
    const res = await send(orphan, {});
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(JSON.parse(res.body).code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('forwards nothing for a client that goes away in the middle of its body', async () => {
    const before = seen.length;
    await new Promise<void>((resolve) => {
      const req = request({
        port,
        method: 'POST',
        path: '/api/webhooks/leads',
        headers: { 'content-type': 'application/json', 'content-length': '100' },
      });
      req.on('error', () => resolve());
      req.write('{"lead_id":"half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.length).toBe(before);
    // And the lane still works afterwards.
    expect((await send(port, {})).status).toBe(200);
  });
});
