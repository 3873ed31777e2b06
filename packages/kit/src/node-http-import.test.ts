import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheDir, repoRoot } from '../../../infra/local/servers.mjs';

// On Node 24 (the image's) an ES import of node:http reads every export of the module, and its
// lazy WebSocket, CloseEvent and MessageEvent load undici, Node's fetch: about 12 MB resident in
// the process for good (bench:memory). A require or process.getBuiltinModule does not.
const imageNode = (() => {
  const version = /NODE_LTS_VERSION="([\d.]+)"/.exec(
    readFileSync(join(repoRoot, 'infra/local/provision.sh'), 'utf8'),
  )?.[1];
  return join(cacheDir, `node-${version}`, 'bin', 'node');
})();

/** Whether a fresh process of the image's Node holds undici after running `script` (an ES module). */
function loadsUndici(script: string): boolean {
  // Fails rather than skips: what this suite guards only shows on the image's Node.
  if (!existsSync(imageNode)) {
    throw new Error(
      `${imageNode} is missing: run \`npm run provision\`, which installs the image's Node into ${cacheDir}`,
    );
  }
  const out = execFileSync(
    imageNode,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `${script}
       console.log(process.moduleLoadList.includes('NativeModule internal/deps/undici/undici'));`,
    ],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' },
  );
  return out.trim().split('\n').at(-1) === 'true';
}

// A child node with tsx: slow on a busy machine.
describe('node:http on the image’s Node', { timeout: 60_000 }, () => {
  it('an ES import of it loads undici, a getBuiltinModule does not (why the kit avoids the import)', () => {
    expect(loadsUndici(`import 'node:http';`)).toBe(true);
    expect(loadsUndici(`process.getBuiltinModule('node:http');`)).toBe(false);
  });

  it('the kit does not load undici: its S3 connection and metrics server read node:http otherwise', () => {
    for (const file of ['./connections/s3.ts', './metrics/server.ts', './index.ts']) {
      const url = new URL(file, import.meta.url).href;
      expect(loadsUndici(`await import(${JSON.stringify(url)});`), file).toBe(false);
    }
  });
});
