import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitForPort } from '../../infra/local/servers.mjs';
import { api, eventually, freshClientAddress, testClientAddress } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { injectingFault } from '../../test/support/faults.js';
import { logLineWith, logOf } from '../../test/support/logs.js';

const env = testEnv();
const gatewayPort = Number(new URL(env.gatewayUrl).port);

/**
 * A request the gateway logs at info; once its id is in the log, everything the gateway logged
 * before it is there too: the positive signal that lets a test then assert an absence.
 */
async function logMarker(): Promise<void> {
  const id = `marker-${randomUUID()}`;
  await api('GET', '/api/no-such-route', { headers: { 'x-request-id': id } });
  await eventually(async () => logOf('gateway').includes(id), 10_000, 'the marker in the gateway log');
}

/** A raw request whose body is written by `write`; resolves with the status, or null if no answer came. */
function rawRequest(
  path: string,
  headers: Record<string, string>,
  write: (req: ReturnType<typeof request>) => void,
): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: gatewayPort, path, method: 'POST', headers, localAddress: testClientAddress() },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      },
    );
    req.on('error', () => resolve(null));
    write(req);
  });
}

describe('logs', () => {
  it('a page opened with a token in its address is logged by path, without the query string', async () => {
    const id = `reset-page-${randomUUID()}`;
    const secret = `secret-${randomUUID()}`;
    const res = await api('GET', `/reset-password?token=${secret}`, { headers: { 'x-request-id': id } });
    expect(res.status).toBe(200);
    const line = await logLineWith('gateway', [id, '"url"'], 'the request in the log');
    expect(line).toContain('"url":"/reset-password"');
    await logMarker();
    expect(logOf('gateway')).not.toContain(secret);
  });

  it('/api/health calls are not logged at info, by the gateway or the services', async () => {
    const id = `health-${randomUUID()}`;
    expect((await api('GET', '/api/health', { headers: { 'x-request-id': id } })).status).toBe(200);
    await logMarker();
    expect(logOf('gateway')).not.toContain(id);
    for (const service of Object.keys(env.servicePorts)) expect(logOf(service)).not.toContain('/health/ready');
  });
});

describe('/api/health', () => {
  it('is limited per client address', async () => {
    const from = freshClientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await api('GET', '/api/health', { from })).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    expect((await api('GET', '/api/health', { from: freshClientAddress() })).status).toBe(200);
  });
});

describe('bodies over the limit', () => {
  const big = JSON.stringify({ email: 'a@example.test', padding: 'x'.repeat(5 * 1024 * 1024) });

  it.each(['/api/auth/forgot-password', '/api/contact', '/api/requests', '/api/no-such-route', '/some/page'])(
    'a declared 5 MB body to %s is refused by the gateway with 413',
    async (path) => {
      const res = await api('POST', path, { raw: big, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: 'The request body is too large.' });
    },
  );

  it('a 5 MB body without a declared length gets the service’s own 413, never a 503', async () => {
    const statuses: (number | null)[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push(
        await rawRequest(
          '/api/auth/forgot-password',
          { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          (req) => {
            const chunk = Buffer.alloc(64 * 1024, 'x');
            req.write('{"email":"a@example.test","padding":"');
            let sent = 0;
            const pump = () => {
              while (sent < 5 * 1024 * 1024) {
                sent += chunk.length;
                if (!req.write(chunk)) return void req.once('drain', pump);
              }
              req.end('"}');
            };
            req.on('error', () => undefined);
            pump();
          },
        ),
      );
    }
    expect(statuses).toEqual(Array(10).fill(413));
  });
});

/** Sends `raw` byte for byte to the gateway and answers what came back. */
function rawExchange(raw: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: gatewayPort, localAddress: testClientAddress() });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // A kept-alive connection stays open: one whole answer (its declared length) is enough.
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
    socket.write(raw);
  });
}

describe('malformed requests (api.md): the error shape and the security headers, never the path', () => {
  const API_CSP = "content-security-policy: default-src 'none'; frame-ancestors 'none'";
  const expectRefusal = (res: { headers: string; body: string }, code: string) => {
    expect(res.headers).toContain(API_CSP);
    expect(res.headers).toContain('x-content-type-options: nosniff');
    const body = JSON.parse(res.body) as { error: string; code: string };
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.code).toBe(code);
  };

  it('a path parameter over 100 characters is a 404 like an unknown one, not a 414 quoting it', async () => {
    const token = 'T'.repeat(150);
    const res = await rawExchange(`GET /api/shared/${token} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(404);
    expectRefusal(res, 'NOT_FOUND');
    expect(res.body).not.toContain(token);
  });

  it.each([
    ['TRACE /api/health', 'GET, HEAD'],
    ['QUERY /api/zipcodes', 'GET, HEAD'],
    ['DELETE /api/zipcodes/44113', 'GET, HEAD'],
    ['PUT /api/requests/covered', 'GET, HEAD'],
  ])('%s is a 405 whose Allow lists the methods the path takes', async (line, allow) => {
    const res = await rawExchange(`${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(405);
    expect(res.headers).toContain(`allow: ${allow.toLowerCase()}`);
    expectRefusal(res, 'METHOD_NOT_ALLOWED');
  });

  it.each([
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['a bare LF', 'GET /api/health HTTP/1.1\nHost: x\n\n', 400],
    ['an unknown method', 'BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['headers past the limit', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
    [
      'an address that does not decode',
      'GET /api/docs/assets/%E0%A4%A/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
    ],
  ])('%s is refused in the error shape with the headers', async (_name, raw, status) => {
    const res = await rawExchange(raw as string);
    expect(res.status).toBe(status);
    expect(res.headers).toContain('content-security-policy: ');
    expect(res.headers).toContain('x-content-type-options: nosniff');
    expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(['code', 'error']);
    expect(res.body).not.toContain('api/');
  });

  it('sends no HSTS over plain http', async () => {
    const res = await api('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('a client that goes away', () => {
  it('is neither answered nor logged as an upstream outage', async () => {
    const id = `aborted-${randomUUID()}`;
    await new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: gatewayPort,
        path: '/api/contact',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '500000', 'x-request-id': id },
        localAddress: testClientAddress(),
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write('{"name":"half a body');
      setTimeout(() => req.destroy(), 300);
    });
    // The gateway saw the request (it logs it as aborted by the client).
    await eventually(async () => logOf('gateway').includes(id), 10_000, 'the aborted request in the log');
    await logMarker();
    const lines = logOf('gateway')
      .split('\n')
      .filter((l) => l.includes(id));
    expect(lines.some((l) => l.includes('upstream unavailable'))).toBe(false);
    expect(lines.some((l) => l.includes('"statusCode":503'))).toBe(false);
  });
});

describe('the web app', () => {
  it('never serves a source map', async () => {
    const html = await (await fetch(env.gatewayUrl)).text();
    const scripts = [...html.matchAll(/\/assets\/[\w.-]+\.js/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect((await fetch(`${env.gatewayUrl}${script}.map`)).status).toBe(404);
  });
});

describe('infra/local/stack.mjs', () => {
  it(
    'reports a service that crashes and starts it again',
    () =>
      injectingFault('a service killed', async () => {
        const port = env.servicePorts.zipcodes!;
        const pidOf = () =>
          /pid=(\d+)/.exec(execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' }))?.[1];
        const pid = Number(pidOf());
        expect(pid).toBeGreaterThan(0);
        process.kill(pid, 'SIGKILL');
        await eventually(async () => Number(pidOf()) > 0 && Number(pidOf()) !== pid, 60_000, 'a new zipcodes process');
        await waitForPort(port);
        expect(logOf('zipcodes')).toMatch(/zipcodes exited unexpectedly \(signal SIGKILL\); restarting at once/);
        await eventually(async () => (await api('GET', '/api/zipcodes')).status === 200, 30_000, 'zipcodes to answer');
      }),
    120_000,
  );
});
