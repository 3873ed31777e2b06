import { readFile, readdir, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text the browser downloads; images other than SVG and the source maps are left alone. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

export type Compressed = { file: string; bytes: number; gzipBytes: number | null; brotliBytes: number | null };

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.gz` and `<file>.br` beside every compressible file of the output folder, at the
 * highest levels (done once per build, so the gateway never compresses per request). A copy that
 * is not smaller than the original is not written.
 */
export async function precompressDir(dir: string): Promise<Compressed[]> {
  const done: Compressed[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const content = await readFile(file);
    if (content.length < MIN_BYTES) continue;
    const gz = gzipSync(content, { level: 9 });
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    const result: Compressed = { file, bytes: content.length, gzipBytes: null, brotliBytes: null };
    if (gz.length < content.length) {
      await writeFile(`${file}.gz`, gz);
      result.gzipBytes = gz.length;
    }
    if (br.length < content.length) {
      await writeFile(`${file}.br`, br);
      result.brotliBytes = br.length;
    }
    done.push(result);
  }
  return done;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'homereport:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const done = await precompressDir(outDir);
      console.log(`Precompressed ${done.length} files (.gz and .br beside each) in ${outDir}`);
    },
  };
}
