import type { UserDataExport } from '@homereport/contracts';
import { AppError, INTERNAL_SECRET_HEADER } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { json, standInService } from '../../../../test/support/stand-in.js';
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

const requests = standInService();
const { warnings, context } = requests;

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
    const url = await requests.start((req, res) => {
      seen = { url: req.url, secret: req.headers[INTERNAL_SECRET_HEADER], requestId: req.headers['x-request-id'] };
      json(200, data)(req, res);
    });
    expect(await new RequestsClient(url, SECRET, 2000).userData('u 1', context)).toEqual(data);
    expect(seen).toEqual({ url: '/internal/users/u%201/export', secret: SECRET, requestId: 'req-1' });
  });

  it('a requests service that is not listening is a 503 with Retry-After, logged as a warning', async () => {
    const url = await requests.start(() => {});
    await requests.stop();
    const err = await failure(new RequestsClient(url, SECRET, 2000).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE', extra: { retryAfterSeconds: 5 } });
    expect(warnings).toEqual([expect.stringMatching(/^requests unavailable/)]);
  });

  it('a requests service that never answers is a 503 once the deadline passes', async () => {
    const url = await requests.start(() => {
      // Takes the call and says nothing, as a hung process would.
    });
    const err = await failure(new RequestsClient(url, SECRET, 200).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('a requests service that sends headers and then hangs is a 503 too', async () => {
    const url = await requests.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"requests":');
    });
    const err = await failure(new RequestsClient(url, SECRET, 200).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('a 5xx from requests (its own dependency down) is a 503, not a 500', async () => {
    const url = await requests.start(json(503, { error: 'down', code: 'DEPENDENCY_UNAVAILABLE' }));
    const err = await failure(new RequestsClient(url, SECRET, 2000).userData('u1', context));
    expect(err).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('an answer that breaks the contract is a bug, thrown as a plain error naming the field', async () => {
    const url = await requests.start(json(200, { ...data, credits: { credits: 'nine' } }));
    await expect(new RequestsClient(url, SECRET, 2000).userData('u1', context)).rejects.toThrow(/\/credits/);
  });
});
