import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { closedPort, runToExit } from '../../test/support/processes.js';

/** Starts a real server.ts with these settings and returns its exit code and its JSON lines. */
const start = (entry: string, settings: Record<string, string>) =>
  runToExit(
    entry,
    {
      PATH: process.env.PATH,
      INTERNAL_SECRET: randomBytes(24).toString('hex'),
      EVENT_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_FORMAT: 'json',
      METRICS_PORT: '0',
      ...settings,
    },
    60_000,
  );

// An operator whose pod crash-loops reads one line: it must name the dependency and the setting
// that points at it (credentials masked), the level a word.
describe('a process whose dependency does not answer at start', () => {
  it('the gateway names Redis and REDIS_URL', async () => {
    const port = await closedPort();
    const { status, lines, output } = start('gateway/src/server.ts', {
      PORT: String(await closedPort()),
      REDIS_URL: `redis://:not-for-logs@127.0.0.1:${port}`,
    });
    expect(status, output).toBe(1);
    expect(lines.filter((l) => l.level === 'fatal').map((l) => l.msg)).toEqual([
      `start-up failed: cannot reach Redis at REDIS_URL=redis://***@127.0.0.1:${port}: Connection is closed.`,
    ]);
    expect(output).not.toContain('not-for-logs');
  }, 70_000);

  it('a service names MongoDB and MONGO_URL', async () => {
    const port = await closedPort();
    const { status, lines, output } = start('services/zipcodes/src/server.ts', {
      PORT: String(await closedPort()),
      MONGO_URL: `mongodb://app:not-for-logs@127.0.0.1:${port}/`,
      MONGO_TIMEOUT_MS: '1000',
    });
    expect(status, output).toBe(1);
    const [fatal, ...more] = lines.filter((l) => l.level === 'fatal');
    expect(more).toEqual([]);
    expect(fatal?.msg).toMatch(
      new RegExp(
        `^start-up failed: cannot reach MongoDB at MONGO_URL=mongodb://\\*\\*\\*@127\\.0\\.0\\.1:${port}/: .*ECONNREFUSED`,
      ),
    );
    expect(output).not.toContain('not-for-logs');
  }, 70_000);
});
