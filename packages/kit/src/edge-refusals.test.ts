import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { createLogger } from './logger.js';

// api.md "Malformed requests": the framework's own refusals answer in the error shape, with the
// app's headers, never quoting the path. Over a real socket: Node's parser refusals never reach
// inject().
const logger = createLogger({ name: 'edge-test', level: 'silent', format: 'json' });
const MARK: readonly [string, string] = ['x-test-header', 'present'];
let app: ServiceApp;
let port = 0;

beforeAll(async () => {
  app = await createServiceApp({
    name: 'edge',
    logger,
    answerHeaders: (_url, secure) => (secure ? [MARK, ['strict-transport-security', 'max-age=1']] : [MARK]),
  });
  app.get('/api/things/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  app.post('/api/things/:id/parts', async () => ({ ok: true }));
  app.get('/api/wild/*', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app?.close());

/** Sends `raw` as is and answers what came back, split into status, headers and body. */
function rawExchange(raw: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
    socket.write(raw);
  });
}

const refusalShape = (body: string) => {
  const parsed = JSON.parse(body) as { error: string; code: string };
  expect(Object.keys(parsed).sort()).toEqual(['code', 'error']);
  return parsed;
};

describe('refusals made by the framework', () => {
  it('a path parameter over 100 characters is a 404 like an unknown one, not a 414 quoting it', async () => {
    const long = 'a'.repeat(150);
    const res = await app.inject({ url: `/api/things/${long}` });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-test-header']).toBe('present');
    expect(res.json()).toEqual({ error: 'There is nothing at this address.', code: 'NOT_FOUND' });
    expect(res.body).not.toContain(long);
  });

  it('an unknown path is a 404 that does not quote it', async () => {
    const res = await app.inject({ url: '/api/nothing-<script>' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('script');
    expect(res.headers['x-test-header']).toBe('present');
  });

  it('a method the path does not take is a 405 listing the ones it does in Allow', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/things/1' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expect(res.headers['x-test-header']).toBe('present');
    const parts = await app.inject({ method: 'GET', url: '/api/things/1/parts' });
    expect(parts.statusCode).toBe(405);
    expect(parts.headers.allow).toBe('POST');
    const query = await app.inject({ method: 'QUERY' as 'GET', url: '/api/things/1' });
    expect(query.statusCode).toBe(405);
  });

  it('an address that does not decode is a 400 in the error shape, with the headers', async () => {
    const res = await rawExchange('GET /api/things/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers).toContain('x-test-header: present');
    expect(refusalShape(res.body).code).toBe('BAD_URL');
    expect(res.body).not.toContain('%E0');
  });

  it.each([
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/things/1/parts HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a bare LF', 'GET /api/things/1 HTTP/1.1\nHost: x\n\n'],
    ['an unknown method', 'BREW /api/things/1 HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('%s is a 400 in the error shape with the headers, and the connection closes', async (_name, raw) => {
    const res = await rawExchange(raw);
    expect(res.status).toBe(400);
    expect(res.headers).toContain('x-test-header: present');
    expect(res.headers).toContain('connection: close');
    expect(refusalShape(res.body)).toEqual({ error: 'The request could not be read.', code: 'BAD_REQUEST' });
  });

  it('headers past the size limit are a 431 in the error shape with the headers', async () => {
    const res = await rawExchange(`GET /api/things/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toContain('x-test-header: present');
    expect(refusalShape(res.body).code).toBe('HEADERS_TOO_LARGE');
  });

  it('adds what the app sends only over TLS when the request came over it (here: never)', async () => {
    const res = await app.inject({ url: '/api/things/1' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
