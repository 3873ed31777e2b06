import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { MAX_RETRIES, shouldRetry } from './queryClient';

const failure = (status: number, networkError = false) => new ApiError({ ok: false, status, error: 'x', networkError });

describe('query retries', () => {
  it('retries a network failure, a 5xx and a 429', () => {
    expect(shouldRetry(0, failure(0, true))).toBe(true);
    expect(shouldRetry(0, failure(503))).toBe(true);
    expect(shouldRetry(1, failure(500))).toBe(true);
    expect(shouldRetry(0, failure(429))).toBe(true);
  });

  it('never retries a 4xx the server meant', () => {
    for (const status of [400, 401, 402, 403, 404]) expect(shouldRetry(0, failure(status))).toBe(false);
  });

  it('stops after the retry budget', () => {
    expect(shouldRetry(MAX_RETRIES, failure(0, true))).toBe(false);
  });

  it('does not retry an error thrown by the app itself', () => {
    expect(shouldRetry(0, new TypeError('bug'))).toBe(false);
  });
});
