import { AppError, type ServicePlugin } from '@homereport/kit';
import type { FastifyRequest } from 'fastify';
import { getFromService } from './proxy.js';
import type { ServiceName } from './routes.js';

/** The web app's pages anyone may open, in the order a visitor meets them (web/src/app/router.tsx). */
export const PUBLIC_PAGES = ['/', '/properties', '/zip', '/request', '/help', '/contact', '/privacy', '/register'];

/** Signed-in, staff and per-person pages, and the API: nothing a search engine should list. */
export const PRIVATE_PREFIXES = ['/admin', '/dashboard', '/settings', '/report', '/shared', '/api'];

/** How long the ZIP codes service has to list its ZIP codes for the sitemap. */
const ZIP_LIST_DEADLINE_MS = 2_000;
const RETRY_AFTER_SECONDS = 30;
/** Crawlers ask rarely; an hour keeps a burst of them off the ZIP codes service. */
const CACHE_CONTROL = 'public, max-age=3600';

/** Where this site is, as the visitor reached it (the proxy's forwarded host and scheme when trusted). */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...PUBLIC_PAGES.map((page) => `Allow: ${page}`),
    // The staff sign-in page is public but starts like /admin: the longer rule wins.
    'Allow: /admin-login',
    ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

export function sitemapXml(origin: string, zipCodes: readonly string[]): string {
  const urls = [...PUBLIC_PAGES, ...zipCodes.map((zip) => `/zip/${zip}`)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((path) => `<url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

export interface SiteIndexOptions {
  targets: Record<ServiceName, string>;
  internalSecret: string;
}

/** The ZIP codes that have an analysis page, from the ZIP codes service's whole list. */
async function zipCodesOf(req: FastifyRequest, options: SiteIndexOptions): Promise<string[]> {
  let body: unknown;
  try {
    const { res, body: text } = await getFromService(req, {
      base: options.targets.zipcodes,
      url: '/api/zipcodes',
      service: 'zipcodes',
      route: '/api/zipcodes',
      internalSecret: options.internalSecret,
      timeoutMs: ZIP_LIST_DEADLINE_MS,
    });
    if (!res.ok) throw new Error(`status ${res.status}`);
    body = JSON.parse(text.toString('utf8'));
  } catch {
    throw new AppError(
      503,
      'DEPENDENCY_UNAVAILABLE',
      'The sitemap is not available right now. Please try again shortly.',
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
  const items = (body as { zipCodes?: { zipCode?: unknown }[] }).zipCodes ?? [];
  return items
    .map((item) => item.zipCode)
    .filter((zip): zip is string => typeof zip === 'string' && /^\d{5}$/.test(zip));
}

/**
 * GET /robots.txt and GET /sitemap.xml (api.md, "Malformed requests"): what crawlers may read, and
 * the public pages with every ZIP analysis page. Routes of their own, before the web app's fallback,
 * which would otherwise answer both with the app's HTML.
 */
export const siteIndex: ServicePlugin<SiteIndexOptions> = async (app, options) => {
  app.get('/robots.txt', async (req, reply) =>
    reply
      .header('cache-control', CACHE_CONTROL)
      .type('text/plain; charset=utf-8')
      .send(robotsTxt(originOf(req))),
  );
  app.get('/sitemap.xml', async (req, reply) => {
    const zipCodes = await zipCodesOf(req, options);
    return reply
      .header('cache-control', CACHE_CONTROL)
      .type('application/xml; charset=utf-8')
      .send(sitemapXml(originOf(req), zipCodes));
  });
};
