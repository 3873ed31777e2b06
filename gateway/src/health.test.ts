import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type HealthAnswer, cachedHealth, servicesHealth } from './health.js';

const answer: HealthAnswer = {
  ok: true,
  body: { status: 'ok', services: {} as HealthAnswer['body']['services'], dependencies: {} },
};

describe('the cached health answer', () => {
  it('asks the services once for any number of callers within the cache time, and again after it', async () => {
    let now = 0;
    let checks = 0;
    const health = cachedHealth(
      async () => {
        checks += 1;
        return answer;
      },
      1500,
      () => now,
    );
    await Promise.all([health(), health(), health()]);
    now = 1000;
    await health();
    expect(checks).toBe(1);
    now = 1600;
    await health();
    expect(checks).toBe(2);
  });

  it('does not keep a failed check', async () => {
    let fail = true;
    const health = cachedHealth(async () => {
      if (fail) throw new Error('boom');
      return answer;
    });
    await expect(health()).rejects.toThrow('boom');
    fail = false;
    await expect(health()).resolves.toBe(answer);
  });
});

describe('the services’ health', () => {
  /** A service whose readiness answers `status` with `body`. */
  const servers: ReturnType<typeof createServer>[] = [];
  const service = async (status: number, body: object) => {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it('calls a ready service with a degradable dependency down up, and the whole answer degraded', async () => {
    const answer = await servicesHealth({
      requests: await service(200, { status: 'degraded', checks: { mongo: 'up', kafka: 'down' } }),
      files: await service(200, { status: 'ready', checks: { s3: 'up' } }),
    } as Parameters<typeof servicesHealth>[0]);
    expect(answer.ok).toBe(false);
    expect(answer.body).toMatchObject({
      status: 'degraded',
      services: { requests: 'up', files: 'up' },
      dependencies: { requests: { kafka: 'down' } },
    });
  });

  it('calls a service that is not ready down', async () => {
    const answer = await servicesHealth({
      requests: await service(503, { status: 'not ready', checks: { mongo: 'down' } }),
    } as Parameters<typeof servicesHealth>[0]);
    expect(answer).toMatchObject({ ok: false, body: { services: { requests: 'down' } } });
  });

  it('is ok with every service ready and every dependency up', async () => {
    const answer = await servicesHealth({
      files: await service(200, { status: 'ready', checks: { s3: 'up' } }),
    } as Parameters<typeof servicesHealth>[0]);
    expect(answer).toMatchObject({ ok: true, body: { status: 'ok', services: { files: 'up' } } });
  });
});
