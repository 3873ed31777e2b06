import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserDataExport } from '@homereport/contracts';
import { AppError, INTERNAL_SECRET_HEADER } from '@homereport/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestsClient } from './requests-client.js';

const SECRET = 'an internal secret of some length';
const data: UserDataExport = {
  requests: [],
  access_history: [
    { id: 'v1', request_id: 'r1', address: '1 Main St, Austin, TX', accessed_at: '2025-01-02T03:04:05.000Z' },
  ],
  credits: {
    credits: 9,
    totalAccess: 1,
    uniqueReports: 1,
    subscription_status: 'free',
    next_refresh_at: '2025-02-01T03:04:05.000Z',
  },
};

const warnings: string[] = [];
const context = { requestId: 'req-1', log: { warn: (_: object, msg: string) => warnings.push(msg) } };

let server: Server | undefined;
afterEach(async () => {
  warnings.length = 0;
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A stand-in requests service on a port of its own; returns its base URL. */
async function requestsService(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('RequestsClient.userData', () => {
  it('asks the internal export route with the secret and the request id, and returns its answer', async () => {
    let seen: { url?: string; secret?: unknown; requestId?: unknown } = {};
    const url = await requestsService((req, res) => {
      seen = { url: req.url, secret: req.headers[INTERNAL_SECRET_HEADER], requestId: req.headers['x-request-id'] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(data));
    });
    expect(await new RequestsClient(url, SECRET, 2000).userData('u 1', context)).toEqual(data);
    expect(seen).toEqual({ url: '/internal/users/u%201/export', secret: SECRET, requestId: 'req-1' });
  });

  it('a requests service that is not listening is a 503 with Retry-After, logged as a warning', async () => {
    const url = await requestsService(() => {});
    await new Promise((r) => server?.close(r));
    server = undefined;
    const err = await failure(new RequestsClient(url, SECRET, 2000).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE', extra: { retryAfterSeconds: 5 } });
    expect(warnings).toEqual([expect.stringMatching(/^requests unavailable/)]);
  });

  it('a requests service that never answers is a 503 once the deadline passes', async () => {
    const url = await requestsService(() => {
      // Takes the call and says nothing, as a hung process would.
    });
    const err = await failure(new RequestsClient(url, SECRET, 200).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('a requests service that sends headers and then hangs is a 503 too', async () => {
    const url = await requestsService((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"requests":');
    });
    const err = await failure(new RequestsClient(url, SECRET, 200).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('a 5xx from requests (its own dependency down) is a 503, not a 500', async () => {
    const url = await requestsService((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
      res.end(JSON.stringify({ error: 'down', code: 'DEPENDENCY_UNAVAILABLE' }));
    });
    const err = await failure(new RequestsClient(url, SECRET, 2000).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('an answer that breaks the contract is a bug, thrown as a plain error naming the field', async () => {
    const url = await requestsService((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ...data, credits: { credits: 'nine' } }));
    });
    await expect(new RequestsClient(url, SECRET, 2000).userData('u1', context)).rejects.toThrow(/\/credits/);
  });
});
