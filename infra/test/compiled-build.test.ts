// The compiled build (`npm run build`) as production runs it: plain node on dist/, the workspace
// packages resolved to their dist/ through the `homereport-dist` condition, no tsx. A compiled
// zipcodes service and a compiled gateway start beside the test stack, on the Node these
// machines have (20) and on the image's Node (installed by `npm run provision`), and answer.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../test/support/env.js';
import { cacheDir, repoRoot } from '../local/servers.mjs';
import { SERVICES, processArgs } from '../local/stack.mjs';

const provisionScript = join(repoRoot, 'infra/local/provision.sh');
const imageNode = (() => {
  const version = /NODE_LTS_VERSION="([\d.]+)"/.exec(readFileSync(provisionScript, 'utf8'))?.[1];
  return { version, bin: join(cacheDir, `node-${version}`, 'bin', 'node') };
})();

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

beforeAll(async () => {
  // Only what the two processes need; `npm run build` does every workspace the same way. Not
  // execFileSync: a worker blocked for minutes misses vitest's own calls and fails the run.
  await promisify(execFile)(
    'npm',
    ['run', 'build', '-w', 'packages/kit', '-w', 'packages/contracts', '-w', 'services/zipcodes', '-w', 'gateway'],
    { cwd: repoRoot },
  );
}, 300_000);

/** Starts one compiled process with `node` and resolves once `path` answers 200. */
async function startCompiled(node: string, name: string, port: number, settings: Record<string, string>) {
  const env = testEnv();
  const child = spawn(node, processArgs('compiled', name), {
    cwd: repoRoot,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      MONGO_URL: env.mongoUrl,
      REDIS_URL: env.redisUrl,
      KAFKA_BROKERS: env.kafkaBrokers,
      INTERNAL_SECRET: env.internalSecret,
      EVENT_SECRET_KEY: env.eventSecretKey,
      ...settings,
    },
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return url;
    if (child.exitCode !== null) throw new Error(`compiled ${name} on ${node} exited (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.each([
  { label: `Node ${process.versions.node} (this machine's)`, node: process.execPath, slot: 0 },
  { label: `Node ${imageNode.version} (the image's)`, node: imageNode.bin, slot: 1 },
])('the compiled build on $label', ({ node, slot }) => {
  it('is the Node it says', () => {
    expect(existsSync(node), `${node}: run npm run provision`).toBe(true);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(slot === 0 ? process.version : `v${imageNode.version}`);
  });

  it('runs a service and the gateway, which reaches the stack through its routes', async () => {
    const env = testEnv();
    // Ports past the stack's own, apart for each Node.
    const zipPort = (env.servicePorts.zipcodes ?? 24004) + 70 + slot * 2;
    const zipcodes = await startCompiled(node, 'zipcodes', zipPort, {});
    const live = await fetch(`${zipcodes}/health/live`);
    expect(live.status).toBe(200);

    const upstreams = Object.fromEntries(
      SERVICES.map((s) => [`${s.toUpperCase()}_URL`, `http://127.0.0.1:${env.servicePorts[s]}`]),
    );
    const gateway = await startCompiled(node, 'gateway', zipPort + 1, {
      ...upstreams,
      ZIPCODES_URL: zipcodes,
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    const health = await fetch(`${gateway}/api/health`);
    expect(health.status).toBe(200);
    // Through the compiled gateway to the compiled zipcodes service and MongoDB.
    const list = await fetch(`${gateway}/api/zipcodes`);
    expect(list.status).toBe(200);
    expect(Array.isArray(((await list.json()) as { zipCodes: unknown[] }).zipCodes)).toBe(true);
    // The web app is served from web/dist as in the image.
    const page = await fetch(`${gateway}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
