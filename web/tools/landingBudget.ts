import { gzipSync } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

export type LandingBudgetOptions = {
  /** The landing route's page module, relative to the web folder, as the router imports it. */
  routeModule: string;
  /** The most gzipped JavaScript the landing page may load, in bytes. */
  maxGzipBytes: number;
};

export type ChunkSize = { fileName: string; rawBytes: number; gzipBytes: number };

/**
 * The JavaScript a first visit to the landing page loads: the entry chunk, the landing route's
 * lazy chunk, and every chunk either imports statically (dynamic imports load only on demand).
 */
export function landingChunks(bundle: OutputBundle, routeModule: string): OutputChunk[] {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const normalized = routeModule.replace(/^\.?\//, '');
  const entry = chunks.find((chunk) => chunk.isEntry);
  const route = chunks.find((chunk) => chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(`/${normalized}`));
  if (!entry) throw new Error('landing budget: the bundle has no entry chunk');
  if (!route) throw new Error(`landing budget: no chunk comes from ${routeModule}; is the route lazy-loaded?`);

  const seen = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  visit(entry);
  visit(route);
  return [...seen].map((name) => byName.get(name)!);
}

export function measure(chunks: OutputChunk[]): ChunkSize[] {
  return chunks.map((chunk) => ({
    fileName: chunk.fileName,
    rawBytes: Buffer.byteLength(chunk.code),
    gzipBytes: gzipSync(chunk.code, { level: 9 }).length,
  }));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Prints the landing page's gzipped JavaScript after every build and fails the build when it
 * is over budget, so a screen that slips into the first chunk is caught where it happens.
 */
export function landingBudget(options: LandingBudgetOptions): Plugin {
  return {
    name: 'homereport:landing-budget',
    apply: 'build',
    generateBundle(_output, bundle) {
      const sizes = measure(landingChunks(bundle, options.routeModule));
      const gzip = sizes.reduce((sum, size) => sum + size.gzipBytes, 0);
      const raw = sizes.reduce((sum, size) => sum + size.rawBytes, 0);
      const lines = sizes
        .sort((a, b) => b.gzipBytes - a.gzipBytes)
        .map(
          (size) =>
            `  ${size.fileName.padEnd(48)} ${kb(size.rawBytes).padStart(10)} ${kb(size.gzipBytes).padStart(10)} gz`,
        );
      const verdict = gzip <= options.maxGzipBytes ? 'within' : 'OVER';
      const summary = `Landing page JavaScript: ${kb(gzip)} gzipped (${kb(raw)} raw) in ${sizes.length} files, ${verdict} the ${kb(options.maxGzipBytes)} budget`;
      console.log(`\n${lines.join('\n')}\n${summary}\n`);
      if (gzip > options.maxGzipBytes) this.error(summary);
    },
  };
}
