import { type RequestListener, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A stand-in for another service, on a port of its own, for the unit tests of a client that
 * calls it; stopped after each test, with the warnings its calls logged forgotten.
 */
export function standInService() {
  const warnings: string[] = [];
  let server: Server | undefined;
  const stop = async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  };
  afterEach(async () => {
    warnings.length = 0;
    await stop();
  });
  return {
    warnings,
    /** What a route handler passes a client: its request id and a logger that keeps the warnings. */
    context: { requestId: 'req-1', log: { warn: (_: object, msg: string) => warnings.push(msg) } },
    /** Starts the stand-in answering with `handler`; returns its base URL. */
    async start(handler: RequestListener): Promise<string> {
      await stop();
      server = createServer(handler);
      await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    /** Stops it: its address is one nothing listens on. */
    stop,
  };
}

/** A handler answering `status` with `body` as JSON. */
export const json = (status: number, body: unknown) => (_req: unknown, res: ServerResponse) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};
