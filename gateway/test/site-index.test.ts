import { describe, expect, it } from 'vitest';
import { testEnv } from '../../test/support/env.js';

// Issue 37, item 8: what crawlers read (api.md, "Malformed requests"), through the gateway.

const get = (path: string) => fetch(`${testEnv().gatewayUrl}${path}`);
/** A ZIP code of the sample data every test stack starts with. */
const SAMPLE_ZIP = '44113';

describe('robots.txt and sitemap.xml', () => {
  it('serves robots.txt as plain text: public pages allowed, private ones and the API not, the sitemap named', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await res.text()).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const page of ['/', '/properties', '/zip', '/help', '/contact', '/privacy']) {
      expect(lines).toContain(`Allow: ${page}`);
    }
    for (const prefix of ['/admin', '/dashboard', '/settings', '/report', '/shared', '/api']) {
      expect(lines).toContain(`Disallow: ${prefix}`);
    }
    expect(lines).toContain(`Sitemap: ${new URL(testEnv().gatewayUrl).origin}/sitemap.xml`);
  });

  it('lists the public pages and each ZIP analysis page in sitemap.xml, with absolute addresses', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    const origin = new URL(testEnv().gatewayUrl).origin;
    expect(locs).toContain(`${origin}/`);
    expect(locs).toContain(`${origin}/zip`);
    expect(locs).toContain(`${origin}/zip/${SAMPLE_ZIP}`);
    // Every ZIP code the public list has, and nothing private.
    const list = (await (await get('/api/zipcodes')).json()) as { zipCodes: { zipCode: string }[] };
    expect(locs.filter((loc) => loc.startsWith(`${origin}/zip/`))).toHaveLength(list.zipCodes.length);
    expect(locs.filter((loc) => /\/(admin|dashboard|settings|report|shared|api)\b/.test(loc))).toEqual([]);
  });
});
