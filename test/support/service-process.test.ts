import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../infra/local/servers.mjs';

/** Every test source file of the repository (the folders the vitest projects read tests from). */
function testFiles(dir: string, inTestFolder = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path, inTestFolder || entry.name === 'test');
    return inTestFolder && /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** A file that starts a service or the gateway outside the stack: by its server entry or the stack's command line. */
const STARTS_A_SERVICE = /processArgs\(|(services\/[^'"`\s]*|gateway)\/src\/server\.ts/;

describe('processes a test starts', () => {
  it('each get a metrics port of the test’s choosing (or none), never the default that `npm start` holds', () => {
    const offenders = testFiles(repoRoot)
      .filter((file) => !file.endsWith('service-process.ts') && !file.endsWith('service-process.test.ts'))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return STARTS_A_SERVICE.test(text) && !text.includes('METRICS_PORT') && !text.includes('spawnServiceProcess');
      })
      .map((file) => relative(repoRoot, file));
    expect(offenders, 'start services with spawnServiceProcess (test/support/service-process.ts)').toEqual([]);
  });

  it('finds the tests that start services (the check above is not empty)', () => {
    const starters = testFiles(repoRoot).filter((file) => STARTS_A_SERVICE.test(readFileSync(file, 'utf8')));
    expect(starters.map((file) => relative(repoRoot, file))).toContain('test/support/service-process.ts');
  });
});
