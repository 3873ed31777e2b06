import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@homereport/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestsClient } from './requests-client.js';

// The requests service answering 503 (its MongoDB hung) is an outage for an upload too: the
// admin gets 503 with Retry-After, never a 500.
let status = 503;
const requests: Server = createServer((_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end('{"error":"Part of our service is not answering right now."}');
});
let client: RequestsClient;

beforeAll(async () => {
  await new Promise<void>((r) => requests.listen(0, '127.0.0.1', r));
  client = new RequestsClient(`http://127.0.0.1:${(requests.address() as AddressInfo).port}`, 'secret');
});
afterAll(() => new Promise((r) => requests.close(r)));

const outage = (err: unknown) =>
  err instanceof AppError && err.statusCode === 503 && err.extra.retryAfterSeconds !== undefined;

describe('the requests client', () => {
  it('turns a 5xx of the requests service into 503 with Retry-After', async () => {
    status = 503;
    expect(outage(await client.exists('r1', 'req').catch((e) => e))).toBe(true);
    expect(outage(await client.recordFiles('r1', [], 'req').catch((e) => e))).toBe(true);
  });

  it('keeps a 4xx what it is', async () => {
    status = 404;
    expect(await client.exists('r1', 'req')).toBe(false);
    const err = await client.recordFiles('r1', [], 'req').catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.statusCode).toBe(404);
  });
});
