import type { Server } from 'node:http';
import { namedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { registry, scrape } from './registry.js';

// Not an ES import: on Node 24 that loads undici into every process for good (connections/s3.ts).
const { createServer } = process.getBuiltinModule('node:http');

/**
 * The process's own metrics port: `GET /metrics` and nothing else. Separate from the public port
 * so the gateway can never serve it (its `/api/metrics` is a 404 like any unknown API path) and a
 * network policy can keep it to the monitoring namespace.
 */
export async function startMetricsServer(options: { host: string; port: number; logger: Logger }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at GET /metrics.\n');
      return;
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text);
      },
      (err: Error) => {
        options.logger.error({ err }, `metrics scrape failed: ${namedError(err)}`);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The metrics port must not keep a process alive that is otherwise shutting down.
  server.unref();
  return server;
}
