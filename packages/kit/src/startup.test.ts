import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DependencyStartupError, reaching, redactUrl } from './startup.js';

const kitIndex = new URL('./index.ts', import.meta.url).pathname;
const repoRoot = new URL('../../..', import.meta.url).pathname;

/** A local port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(1);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { level: unknown; msg: string });
      const fatal = lines.filter((l) => l.level === 'fatal');
      expect(fatal.map((l) => l.msg)).toEqual([
        `start-up failed: cannot reach Redis at REDIS_URL=redis://***@127.0.0.1:${port}: Connection is closed.`,
      ]);
      // Every line carries its level as a word; no line holds the password.
      for (const line of lines) expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
      expect(run.stdout + run.stderr).not.toContain('not-for-logs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
