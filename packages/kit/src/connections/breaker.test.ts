import { type AddressInfo, type Socket, createServer } from 'node:net';
import type { RedisOptions } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unavailableDependency } from '../dependency-errors.js';
import { CircuitOpenError, DependencyBreaker, type WatchedRedis, createRedis, guardRedis } from './breaker.js';

const logger = pino({ level: 'silent' });

describe('DependencyBreaker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens after five failures within 3 s, fails calls at once, and closes when a probe answers', async () => {
    vi.useFakeTimers();
    let up = false;
    const breaker = new DependencyBreaker(
      'mongo',
      async () => {
        if (!up) throw new Error('still down');
      },
      logger,
    );
    for (const t of [0, 500, 1000, 1500]) breaker.failure(t);
    expect(breaker.isOpen).toBe(false);
    breaker.failure(2000);
    expect(breaker.isOpen).toBe(true);
    expect(() => breaker.check()).toThrow(CircuitOpenError);
    try {
      breaker.check();
    } catch (err) {
      // A 503 with Retry-After naming the dependency, like any unavailable dependency.
      expect(unavailableDependency(err)).toBe('mongo');
    }
    await vi.advanceTimersByTimeAsync(3000);
    expect(breaker.isOpen).toBe(true);
    up = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(breaker.isOpen).toBe(false);
    expect(() => breaker.check()).not.toThrow();
    breaker.stop();
  });

  it('does not open on failures spread wider than its window', () => {
    const breaker = new DependencyBreaker('redis', async () => {}, logger);
    for (let t = 0; t < 20_000; t += 2000) breaker.failure(t);
    expect(breaker.isOpen).toBe(false);
    breaker.stop();
  });
});

/**
 * A Redis stand-in that takes connections and reads commands but answers none while `hung`, as a
 * paused Redis does; once answering it replies +PONG to every command it holds, the old ones first.
 */
function fakeRedis() {
  const state = { hung: true, connections: 0, sockets: new Set<{ socket: Socket; pending: number }>() };
  const server = createServer((socket) => {
    state.connections += 1;
    const conn = { socket, pending: 0 };
    state.sockets.add(conn);
    socket.on('data', (chunk) => {
      conn.pending += chunk.toString('latin1').match(/(^|\r\n)\*\d+\r\n/g)?.length ?? 0;
      if (!state.hung) flush(conn);
    });
    socket.on('close', () => state.sockets.delete(conn));
  });
  const flush = (conn: { socket: Socket; pending: number }) => {
    conn.socket.write('+PONG\r\n'.repeat(conn.pending));
    conn.pending = 0;
  };
  return {
    server,
    state,
    answer() {
      state.hung = false;
      for (const conn of state.sockets) flush(conn);
    },
  };
}

type FakeRedis = ReturnType<typeof fakeRedis>;

/**
 * The kit's ioredis client connected to `fake`, listening on a free port. Its error events are swallowed:
 * these tests time its commands out and drop its connections on purpose.
 */
async function connectTo(fake: FakeRedis, options: RedisOptions) {
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  const port = (fake.server.address() as AddressInfo).port;
  const redis = createRedis(`redis://127.0.0.1:${port}`, { lazyConnect: true, ...options });
  redis.on('error', () => {});
  await redis.connect();
  return redis;
}

async function disconnect(redis: WatchedRedis, fake: FakeRedis) {
  redis.disconnect();
  await new Promise((r) => fake.server.close(r));
}

describe('guardRedis', () => {
  it('fails commands at once with CircuitOpenError once commands time out, and lets them through after Redis answers', async () => {
    const fake = fakeRedis();
    const redis = await connectTo(fake, { enableReadyCheck: false, commandTimeout: 100 });
    const breaker = guardRedis(redis, logger, { probeEveryMs: 50 });
    try {
      for (let i = 0; i < 5; i++) await expect(redis.ping()).rejects.toThrow(/Command timed out/);
      expect(breaker.isOpen).toBe(true);
      await expect(redis.get('k')).rejects.toBeInstanceOf(CircuitOpenError);
      fake.answer();
      await vi.waitFor(() => expect(breaker.isOpen).toBe(false), { timeout: 5000 });
      expect(await redis.ping()).toBe('PONG');
    } finally {
      breaker.stop();
      await disconnect(redis, fake);
    }
  });
});

describe('guardRedis while a new connection is made', () => {
  it('lets ioredis check the new connection through an open breaker, and closes on its ready', async () => {
    const fake = fakeRedis();
    fake.answer();
    const redis = await connectTo(fake, { commandTimeout: 1000 });
    const breaker = guardRedis(redis, logger, { probeEveryMs: 60_000 });
    try {
      for (let i = 0; i < 5; i++) breaker.failure();
      expect(breaker.isOpen).toBe(true);
      // A new connection sends INFO (the ready check) before it is ready.
      redis.disconnect(true);
      await vi.waitFor(() => expect(breaker.isOpen).toBe(false), { timeout: 5000 });
      expect(await redis.ping()).toBe('PONG');
    } finally {
      breaker.stop();
      await disconnect(redis, fake);
    }
  });
});
