import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { type ServiceApp, createLogger } from '@homereport/kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeRedis } from '../../test/support/fake-redis.js';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

/** A stub zipcodes service that serves only its OpenAPI document. */
const zipcodes: Server = createServer((req, res) => {
  if (req.url !== '/openapi.json') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'zipcodes', version: '1' },
      paths: { '/api/zipcodes': { get: { responses: { 200: { description: 'ok' } } } }, '/health/live': {} },
    }),
  );
});
let zipcodesUrl = '';
let downUrl = '';
let app: ServiceApp;

beforeAll(async () => {
  await new Promise<void>((r) => zipcodes.listen(0, '127.0.0.1', r));
  zipcodesUrl = `http://127.0.0.1:${(zipcodes.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((r) => closed.close(r));
});
afterAll(() => new Promise((r) => zipcodes.close(r)));
afterEach(() => app?.close());

async function gateway(zipcodesAt: string) {
  const config = loadGatewayConfig({
    INTERNAL_SECRET: 'secret-of-the-reference-test',
    REDIS_URL: 'redis://127.0.0.1:1',
    AUTH_URL: downUrl,
    REQUESTS_URL: downUrl,
    FILES_URL: downUrl,
    ZIPCODES_URL: zipcodesAt,
    LEADS_URL: downUrl,
    NOTIFICATIONS_URL: downUrl,
    WEB_DIST: '/nonexistent-web-dist',
  });
  const logger = createLogger({ name: 'api-reference-test', level: 'silent', format: 'json' });
  app = await buildGateway({ config, logger, redis: fakeRedis() });
  await app.ready();
  return app;
}

describe('GET /api/openapi.json', () => {
  it('serves what the services that answer describe, and names the ones that did not', async () => {
    await gateway(zipcodesUrl);
    const res = await app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    const doc = res.json() as { paths: Record<string, unknown>; 'x-missing-services': string[] };
    expect(Object.keys(doc.paths)).toEqual(['/api/docs', '/api/health', '/api/openapi.json', '/api/zipcodes']);
    expect(doc['x-missing-services'].sort()).toEqual(['auth', 'files', 'leads', 'notifications', 'requests']);
  });

  it('answers 503 with Retry-After when no service answers', async () => {
    await gateway(downUrl);
    const res = await app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({
      error: expect.stringContaining('not available'),
      code: 'REFERENCE_UNAVAILABLE',
    });
  });
});

describe('GET /api/docs', () => {
  it('is a page whose scripts and styles come from the gateway itself, allowed by its CSP', async () => {
    await gateway(zipcodesUrl);
    const page = await app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("default-src 'none'");
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const source of sources) {
      // Same origin only: no CDN.
      expect(source).toMatch(/^\/api\//);
      if (source === '/api/openapi.json') continue;
      const asset = await app.inject({ url: source, headers: { 'accept-encoding': 'gzip' } });
      expect(asset.statusCode, source).toBe(200);
      expect(asset.headers['content-security-policy'], source).toContain("script-src 'self'");
    }
  });

  it('sends Swagger UI’s bundle gzipped to a browser that accepts it, and whole otherwise', async () => {
    await gateway(zipcodesUrl);
    const page = await app.inject({ url: '/api/docs' });
    const bundle = /src="([^"]+swagger-ui-bundle\.js)"/.exec(page.body)?.[1] as string;
    const zipped = await app.inject({ url: bundle, headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['cache-control']).toContain('immutable');
    const plain = await app.inject({ url: bundle });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(plain.body).toContain('SwaggerUIBundle');
  });

  it('serves none of the package’s other files, nor another version’s', async () => {
    await gateway(zipcodesUrl);
    const page = await app.inject({ url: '/api/docs' });
    const bundle = /src="([^"]+swagger-ui-bundle\.js)"/.exec(page.body)?.[1] as string;
    for (const url of [
      bundle.replace('swagger-ui-bundle.js', 'package.json'),
      bundle.replace('swagger-ui-bundle.js', 'swagger-ui-bundle.js.map'),
      bundle.replace(/assets\/[^/]+\//, 'assets/0.0.1/'),
      bundle.replace('swagger-ui-bundle.js', '..%2Fpackage.json'),
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});
