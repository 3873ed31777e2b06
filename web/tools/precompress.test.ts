import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('precompression', () => {
  it('writes .gz and .br beside compressible files that decompress to the original', async () => {
    dir = await mkdtemp(join(tmpdir(), 'precompress-'));
    await mkdir(join(dir, 'assets'));
    const js = `export const text = ${JSON.stringify('HomeReport '.repeat(500))};\n`;
    await writeFile(join(dir, 'assets', 'index-abc.js'), js);
    await writeFile(join(dir, 'assets', 'tiny.css'), 'a{}');
    await writeFile(join(dir, 'assets', 'index-abc.js.map'), '{"x":"'.padEnd(4000, 'y'));
    await writeFile(join(dir, 'logo.png'), Buffer.alloc(4000, 1));

    const done = await precompressDir(dir);

    expect(done.map((d) => d.file)).toEqual([join(dir, 'assets', 'index-abc.js')]);
    expect(gunzipSync(await readFile(join(dir, 'assets', 'index-abc.js.gz'))).toString()).toBe(js);
    expect(brotliDecompressSync(await readFile(join(dir, 'assets', 'index-abc.js.br'))).toString()).toBe(js);
    expect((await readdir(join(dir, 'assets'))).sort()).toEqual([
      'index-abc.js',
      'index-abc.js.br',
      'index-abc.js.gz',
      'index-abc.js.map',
      'tiny.css',
    ]);
  });
});
