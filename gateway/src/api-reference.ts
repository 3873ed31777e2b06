import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Logger, type ServicePlugin, notFound } from '@homereport/kit';
import { THEME_CSS } from './api-reference-theme.js';
import { publicDocumentSource } from './openapi.js';
import type { ServiceName } from './routes.js';

/** Seconds a client waits before asking again for a document no service could give. */
const RETRY_AFTER_SECONDS = 5;

/** Swagger UI's prebuilt files, served from the installed package (no CDN): only these. */
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerVersion = (JSON.parse(readFileSync(join(swaggerDir, 'package.json'), 'utf8')) as { version: string })
  .version;
/** The version in the path, so the files can be kept for a year and an upgrade is a new URL. */
const assetBase = `/api/docs/assets/${swaggerVersion}`;

/**
 * The page's own script is a file, not inline: the page's CSP allows scripts from 'self' only.
 *
 * Deep linking is off: it puts a link inside each operation's toggle button, a control within a
 * control that keyboard and screen-reader users cannot use (axe: nested-interactive). The plugin
 * names two controls Swagger UI leaves unnamed (a request body's text area, the examples list),
 * through its public `wrapComponents`, and leaves out the servers list: the document names one
 * server, this page's own origin ('/'), so the list offers no choice, and its select has no name
 * (axe: select-name). Calls tried here go to the document's first server without it.
 */
const INIT_SCRIPT = `const LabelledControls = () => ({
  wrapComponents: {
    ServersContainer: () => () => null,
    TextArea: (Original, system) => (props) =>
      system.React.createElement(Original, { 'aria-label': props.title || 'Request body', ...props }),
    ExamplesSelect: (Original, system) => (props) =>
      system.React.createElement(
        'label',
        null,
        system.React.createElement('span', { className: 'hr-visually-hidden' }, 'Example'),
        system.React.createElement(Original, props),
      ),
  },
});
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: false,
  docExpansion: 'list',
  // No badge that sends the document to an outside validator.
  validatorUrl: null,
  plugins: [LabelledControls],
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>HomeReport API reference</title>
<link rel="stylesheet" href="${assetBase}/swagger-ui.css">
<link rel="stylesheet" href="/api/docs/theme.css">
<link rel="icon" type="image/png" href="${assetBase}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"><p style="font-family:sans-serif;margin:2rem">Loading the API reference… It needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></div>
<script src="${assetBase}/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

interface Asset {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
}

export interface ApiReferenceOptions {
  targets: Record<ServiceName, string>;
  logger: Logger;
}

/**
 * GET /api/openapi.json (the services' documents merged, openapi.ts) and GET /api/docs (Swagger UI
 * over it, its files served from here). Routes of their own, so neither goes through the /api/*
 * forwarding; securityHeadersFor gives /api/docs the page headers it needs to run.
 */
export const apiReference: ServicePlugin<ApiReferenceOptions> = async (app, options) => {
  const document = publicDocumentSource(options);

  app.get('/api/openapi.json', async (_req, reply) => {
    const doc = await document();
    if (!doc) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(503).send({
        error: 'The API reference is not available right now: no service answered. Please try again shortly.',
        code: 'REFERENCE_UNAVAILABLE',
      });
    }
    // An incomplete document must not be kept anywhere once the missing service is back.
    reply.header('cache-control', doc.missing.length > 0 ? 'no-store' : 'public, max-age=60');
    return reply.type('application/json; charset=utf-8').send(doc.json);
  });

  app.get('/api/docs', async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE),
  );
  app.get('/api/docs/init.js', async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('application/javascript; charset=utf-8').send(INIT_SCRIPT),
  );
  app.get('/api/docs/theme.css', async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(THEME_CSS),
  );

  // Read (and the bundle gzipped) on first request, then kept: most gateways never serve them.
  const assets = new Map<string, Asset>();
  const assetOf = (file: string): Asset => {
    let asset = assets.get(file);
    if (!asset) {
      const body = readFileSync(join(swaggerDir, file));
      const type = ASSETS[file] as string;
      asset = { body, type, gzipped: type.startsWith('image/') ? null : gzipSync(body) };
      assets.set(file, asset);
    }
    return asset;
  };

  app.get<{ Params: { version: string; file: string } }>('/api/docs/assets/:version/:file', async (req, reply) => {
    const { version, file } = req.params;
    if (version !== swaggerVersion || !Object.hasOwn(ASSETS, file)) throw notFound();
    const asset = assetOf(file);
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding');
    reply.type(asset.type);
    if (asset.gzipped && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      return reply.header('content-encoding', 'gzip').send(asset.gzipped);
    }
    return reply.send(asset.body);
  });
};
