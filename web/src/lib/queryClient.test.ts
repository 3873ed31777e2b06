import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { MAX_RETRIES, RETRY_DELAY_MS, createQueryClient, shouldRetry } from './queryClient';

const failure = (status: number, networkError = false) => new ApiError({ ok: false, status, error: 'x', networkError });

describe('query retries', () => {
  it('retries a network failure, a 5xx and a 429 once', () => {
    expect(shouldRetry(0, failure(0, true))).toBe(true);
    expect(shouldRetry(0, failure(503))).toBe(true);
    expect(shouldRetry(0, failure(500))).toBe(true);
    expect(shouldRetry(0, failure(429))).toBe(true);
  });

  it('never retries a 4xx the server meant', () => {
    for (const status of [400, 401, 402, 403, 404]) expect(shouldRetry(0, failure(status))).toBe(false);
  });

  it('stops after one retry', () => {
    expect(MAX_RETRIES).toBe(1);
    expect(shouldRetry(1, failure(0, true))).toBe(false);
    expect(shouldRetry(1, failure(503))).toBe(false);
  });

  it('does not retry an error thrown by the app itself', () => {
    expect(shouldRetry(0, new TypeError('bug'))).toBe(false);
  });
});

describe('the query client', () => {
  afterEach(() => {
    vi.useRealTimers();
    onlineManager.setOnline(true);
  });

  it('still asks, and so fails in words, when the browser believes it is offline', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient();
    const queryFn = vi.fn(async () => {
      throw failure(404);
    });
    // Paused instead, this would never settle and the test would time out.
    await expect(client.fetchQuery({ queryKey: ['offline'], queryFn })).rejects.toBeInstanceOf(ApiError);
    expect(queryFn).toHaveBeenCalledTimes(1);
    client.clear();
  });

  it('asks twice for a read answered 503, the second time after the short delay, then fails', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn(async () => {
      throw failure(503);
    });
    const result = client.fetchQuery({ queryKey: ['outage'], queryFn }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS - 1);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBeInstanceOf(ApiError);
    expect(queryFn).toHaveBeenCalledTimes(2);
    client.clear();
  });

  it('asks once for a read answered 404', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => {
      throw failure(404);
    });
    await expect(client.fetchQuery({ queryKey: ['missing'], queryFn })).rejects.toBeInstanceOf(ApiError);
    expect(queryFn).toHaveBeenCalledTimes(1);
    client.clear();
  });

  it('never sends a failed write again', async () => {
    const client = createQueryClient();
    const mutationFn = vi.fn(async () => {
      throw failure(503);
    });
    const mutation = client.getMutationCache().build(client, { mutationFn });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    expect(mutationFn).toHaveBeenCalledTimes(1);
    client.clear();
  });
});
