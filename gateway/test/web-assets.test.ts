import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../infra/local/servers.mjs';
import { testEnv } from '../../test/support/env.js';

/**
 * The gateway serves the built web app (web/dist): the precompressed copies the build wrote,
 * content-hashed assets cached for a year, the app shell revalidated every time, no source maps.
 */
const dist = join(repoRoot, 'web/dist');
const assets = readdirSync(join(dist, 'assets'));
const js = assets.find((f) => f.endsWith('.js') && assets.includes(`${f}.br`) && assets.includes(`${f}.gz`));
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${testEnv().gatewayUrl}${path}`, { headers });

describe('the web app', () => {
  it('has a compressible script to check with', () => {
    expect(js).toBeTruthy();
  });

  it('sends the brotli copy of a hashed asset when the browser accepts br, cached for a year', async () => {
    const original = readFileSync(join(dist, 'assets', js as string));
    const res = await get(`/assets/${js}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = Buffer.from(await res.arrayBuffer());
    // fetch does not decode br for us in every version: compare whichever we got.
    expect(body.length < original.length ? brotliDecompressSync(body) : body).toEqual(original);
  });

  it('sends the gzip copy when only gzip is accepted, and the file itself when nothing is', async () => {
    const original = readFileSync(join(dist, 'assets', js as string));
    const gz = await get(`/assets/${js}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const gzBody = Buffer.from(await gz.arrayBuffer());
    expect(gzBody.length < original.length ? gunzipSync(gzBody) : gzBody).toEqual(original);
    const plain = await get(`/assets/${js}`, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(original);
  });

  it('revalidates the app shell every time, on / and on client routes', async () => {
    for (const path of ['/', '/properties', '/report/abc', '/no/such/page']) {
      const res = await get(path, { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('never serves a source map nor a compressed copy by name', async () => {
    const map = assets.find((f) => f.endsWith('.map'));
    if (map) expect((await get(`/assets/${map}`)).status).toBe(404);
    expect((await get(`/assets/${js}.br`)).status).toBe(404);
    expect((await get(`/assets/${js}.gz`)).status).toBe(404);
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const res = await get('/assets/missing-abc123.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
  });

  it('serves other files of the build root (favicon) revalidated', async () => {
    const res = await get('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/svg/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });
});
