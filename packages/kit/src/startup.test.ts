import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, runToExit } from '../../../test/support/processes.js';
import { DependencyStartupError, reaching, redactUrl } from './startup.js';

const kitIndex = new URL('./index.ts', import.meta.url).pathname;

describe('a dependency that does not answer at start', () => {
  it('is named with its setting and where it points, credentials masked', async () => {
    const err = await reaching('Redis', 'REDIS_URL', 'redis://:s3cret@redis:6379', async () => {
      throw new Error('Connection is closed.');
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyStartupError);
    expect((err as Error).message).toBe(
      'cannot reach Redis at REDIS_URL=redis://***@redis:6379: Connection is closed.',
    );
    expect((err as Error).cause).toBeInstanceOf(Error);
    expect(redactUrl('mongodb://app:pw@h1:27017,h2:27017/?replicaSet=rs0')).toBe(
      'mongodb://***@h1:27017,h2:27017/?replicaSet=rs0',
    );
    expect(redactUrl('redis://redis:6379')).toBe('redis://redis:6379');
    // What it opened is passed through when it answers.
    expect(await reaching('S3', 'S3_ENDPOINT', 'http://minio:9000', async () => 42)).toBe(42);
  });

  it('stops the process with one fatal line naming it, the level as a word', async () => {
    const port = await closedPort();
    const dir = mkdtempSync(join(tmpdir(), 'homereport-startup-'));
    try {
      // A service's server.ts as the kit runs it (runService), whose Redis is not there.
      const script = join(dir, 'server.mts');
      writeFileSync(
        script,
        `import { connectRedis, reaching, runService } from '${kitIndex}';
const url = 'redis://:not-for-logs@127.0.0.1:${port}';
await runService(
  'probe',
  () => ({ HOST: '127.0.0.1', PORT: 0, LOG_LEVEL: 'info', LOG_FORMAT: 'json' as const, METRICS_PORT: 0 }),
  async () => {
    await reaching('Redis', 'REDIS_URL', url, () => connectRedis(url));
    throw new Error('started although Redis is away');
  },
);
`,
      );
      const { status, lines, output } = runToExit(script, process.env, 30_000);
      expect(status, output).toBe(1);
      const fatal = lines.filter((l) => l.level === 'fatal');
      expect(fatal.map((l) => l.msg)).toEqual([
        `start-up failed: cannot reach Redis at REDIS_URL=redis://***@127.0.0.1:${port}: Connection is closed.`,
      ]);
      // Every line carries its level as a word; no line holds the password.
      for (const line of lines) expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
      expect(output).not.toContain('not-for-logs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
