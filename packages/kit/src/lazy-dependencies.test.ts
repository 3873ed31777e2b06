import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every process imports the kit, but each uses only some of its servers. The clients of the
// others must not be loaded at import, or every process holds them (bench:memory: the goal is
// under 100 MB idle each); they load where the connection is opened (connectMongo, createKafka,
// connectRedis, createS3Client, startTracing).
const LOADED_ON_FIRST_USE = [
  'mongoose',
  'mongodb',
  'kafkajs',
  'ioredis',
  'minio',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
];

/** The npm packages a fresh node process holds after running `script` (an ES module). */
function packagesLoadedBy(script: string): Set<string> {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `${script}
       const { createRequire } = await import('node:module');
       console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`,
    ],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' },
  );
  const files: string[] = JSON.parse(out.trim().split('\n').at(-1) ?? '[]');
  return new Set(files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? ''));
}

// A child node with tsx: slow on a busy machine, hence the generous timeout (no timing is checked).
describe('the kit at import', { timeout: 60_000 }, () => {
  const index = new URL('./index.ts', import.meta.url).href;

  it('loads no server client and no trace exporter: each loads where it is first used', () => {
    const loaded = packagesLoadedBy(`await import(${JSON.stringify(index)});`);
    expect(loaded.has('fastify')).toBe(true); // the listing works
    expect(LOADED_ON_FIRST_USE.filter((p) => loaded.has(p))).toEqual([]);
  });

  it('loads the trace SDK once tracing starts', () => {
    const loaded = packagesLoadedBy(
      `const kit = await import(${JSON.stringify(new URL('./tracing/export.ts', import.meta.url).href)});
       kit.startTracing('probe', {}); await kit.stopTracing();`,
    );
    expect(loaded.has('@opentelemetry/sdk-trace-base')).toBe(true);
  });
});
