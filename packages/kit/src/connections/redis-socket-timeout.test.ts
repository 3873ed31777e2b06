import { type AddressInfo, createServer } from 'node:net';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { connectRedis } from './redis.js';

const logger = pino({ level: 'silent' });

/**
 * A Redis stand-in: answers INFO (a version new enough) and PING, except on the connections
 * `wedged` names, which take commands and never answer, as one a lost network left open.
 */
function fakeRedis() {
  const state = { connections: 0, wedgeFrom: Number.POSITIVE_INFINITY, wedgeTo: Number.POSITIVE_INFINITY };
  const server = createServer((socket) => {
    state.connections += 1;
    const n = state.connections;
    socket.on('data', (chunk) => {
      if (n >= state.wedgeFrom && n <= state.wedgeTo) return;
      for (const command of chunk
        .toString('latin1')
        .split(/\*\d+\r\n/)
        .slice(1)) {
        if (/info/i.test(command)) {
          const info = 'redis_version:7.2.0\r\n';
          socket.write(`$${info.length}\r\n${info}\r\n`);
        } else socket.write('+PONG\r\n');
      }
    });
  });
  return { server, state };
}

describe('connectRedis with a deadline', () => {
  it('drops a connection that stopped answering and makes a new one, without a restart', async () => {
    const fake = fakeRedis();
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    const port = (fake.server.address() as AddressInfo).port;
    // Guarded as the services' are: the breaker opens on the timeouts, and its probes on the
    // silent connection are what the socket timeout notices.
    const redis = await connectRedis(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 200, logger });
    // connectRedis listens for connection errors itself: none is printed as unhandled.
    expect(redis.listenerCount('error')).toBeGreaterThan(0);
    try {
      expect(await redis.ping()).toBe('PONG');
      // The first connection goes silent for good; new ones answer.
      fake.state.wedgeFrom = 1;
      fake.state.wedgeTo = 1;
      await expect(redis.ping()).rejects.toThrow();
      await vi.waitFor(async () => expect(await redis.ping()).toBe('PONG'), { timeout: 10_000, interval: 100 });
      expect(fake.state.connections).toBeGreaterThan(1);
    } finally {
      redis.disconnect();
      await new Promise((r) => fake.server.close(r));
    }
  });
});
