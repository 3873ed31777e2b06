import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { testEnv } from './env.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  raw?: RequestInit['body'];
  /**
   * The client address the gateway sees (any 127.x.y.z reaches loopback). By default each test
   * gets an address of its own (see testClientAddress), so tests never share a per-address
   * budget (sign-in failures, registrations, contact messages) and never wait on each other's.
   */
  from?: string;
}

/**
 * A loopback address that belongs to the running test (derived from its file and name): the
 * same for every call of one test, different between tests.
 */
export function testClientAddress(label = ''): string {
  const state = expect.getState();
  const digest = createHash('sha256')
    .update(`${state.testPath ?? ''}|${state.currentTestName ?? ''}|${label}`)
    .digest();
  // 127.1.0.0 and up: 127.0.0.1 stays the address of browsers and other clients.
  return `127.${1 + ((digest[0] ?? 0) % 254)}.${digest[1] ?? 0}.${1 + ((digest[2] ?? 0) % 254)}`;
}

/** A fresh loopback address nobody else uses, for a test that needs several clients. */
export const freshClientAddress = () => testClientAddress(randomUUID());

/** Calls the gateway as a browser or an ad platform would, from the test's own client address. */
export async function api<T = any>(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'] | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  // Any body the Fetch API accepts (FormData, Blob, text), encoded as fetch would encode it.
  let payload: Buffer | undefined;
  if (body !== undefined && body !== null) {
    const encoded = new Request('http://encode.invalid/', { method: 'POST', body });
    payload = Buffer.from(await encoded.arrayBuffer());
    const type = encoded.headers.get('content-type');
    if (type && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = type;
  }
  const url = new URL(path, testEnv().gatewayUrl);
  const { status, responseHeaders, text } = await new Promise<{
    status: number;
    responseHeaders: Headers;
    text: string;
  }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
        localAddress: options.from ?? testClientAddress(),
        agent: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          resolve({ status: res.statusCode ?? 0, responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    // A server may answer before reading the whole body (413) and stop reading: the answer counts.
    let answered = false;
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(payload);
  });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status, headers: responseHeaders, body: parsed as T };
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
