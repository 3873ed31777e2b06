import { AppError } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { json, standInService } from '../../../../test/support/stand-in.js';
import { RequestsClient } from './requests-client.js';

// The requests service answering 503 (its MongoDB hung) is an outage for an upload too: the
// admin gets 503 with Retry-After, never a 500.
const requests = standInService();
const client = async (status: number) =>
  new RequestsClient(
    await requests.start(json(status, { error: 'Part of our service is not answering right now.' })),
    'secret',
  );

const outage = (err: unknown) =>
  err instanceof AppError && err.statusCode === 503 && err.extra.retryAfterSeconds !== undefined;

describe('the requests client', () => {
  it('turns a 5xx of the requests service into 503 with Retry-After', async () => {
    const failing = await client(503);
    expect(outage(await failing.exists('r1', 'req').catch((e) => e))).toBe(true);
    expect(outage(await failing.recordFiles('r1', [], 'req').catch((e) => e))).toBe(true);
  });

  it('keeps a 4xx what it is', async () => {
    const missing = await client(404);
    expect(await missing.exists('r1', 'req')).toBe(false);
    const err = await missing.recordFiles('r1', [], 'req').catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.statusCode).toBe(404);
  });
});
