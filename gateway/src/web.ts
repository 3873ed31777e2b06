import { existsSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { type Logger, type ServicePlugin, notFound } from '@homereport/kit';

/** Content-hashed build output: a file's name changes with its content, so it may be kept for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon): the browser checks back every time (ETag makes that cheap). */
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app (web/dist):
 * - `/assets/*` (content-hashed by Vite) with a one-year immutable cache lifetime;
 * - the `.br` or `.gz` copy the build wrote beside a file, when the browser accepts it;
 * - never a source map, nor a compressed copy asked for by name;
 * - every other GET falls back to index.html (no-cache), so client routes and the 404 page
 *   survive a reload. A missing asset is a 404, never the app shell.
 * Files are looked up per request, so a rebuild while the gateway runs is served at once.
 */
export const webApp: ServicePlugin<{ webDist: string; logger: Logger }> = async (app, { webDist, logger }) => {
  const root = normalize(webDist);
  const indexHtml = join(root, 'index.html');
  if (!existsSync(indexHtml)) {
    logger.warn({ dir: webDist }, 'web app not built; run `npm run build -w web`');
  }

  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    // Our own Cache-Control below; send's default would be max-age=0.
    cacheControl: false,
    dotfiles: 'deny',
    allowedPath: (pathname) => servable(pathname),
    setHeaders: (res, path) => {
      res.setHeader('cache-control', path.startsWith(join(root, 'assets') + sep) ? IMMUTABLE : REVALIDATE);
      res.setHeader('vary', 'accept-encoding');
    },
  });

  const isFile = (relative: string) => {
    const full = normalize(join(root, relative));
    if (!full.startsWith(root + sep)) return false;
    try {
      return statSync(full).isFile();
    } catch {
      return false;
    }
  };

  app.get('/*', async (req, reply) => {
    const path = decodePath(req.url.split('?')[0] ?? '/');
    if (path === null || !servable(path)) throw notFound();
    const relative = path.replace(/^\/+/, '');
    if (path.startsWith('/assets/')) return reply.sendFile(relative);
    if (relative.length > 0 && isFile(relative)) return reply.sendFile(relative);
    if (!existsSync(indexHtml)) {
      return reply.status(503).type('text/plain').send('The web app is not built yet. Run: npm run build -w web');
    }
    return reply.sendFile('index.html');
  });
};

/** Source maps stay private, and compressed copies are reached only through content negotiation. */
function servable(path: string): boolean {
  return !/\.(map|br|gz)$/i.test(path) && !path.split('/').some((segment) => segment.startsWith('.'));
}

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
