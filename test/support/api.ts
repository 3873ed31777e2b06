import { randomUUID } from 'node:crypto';
import { testEnv } from './env.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the gateway as a browser or an ad platform would. */
export async function api<T = any>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: RequestInit['body'] } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'] | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${testEnv().gatewayUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** A unique address per test, so no test depends on another's data. */
export const uniqueEmail = (label = 'user') => `${label}.${randomUUID().slice(0, 8)}@example.test`;

export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
