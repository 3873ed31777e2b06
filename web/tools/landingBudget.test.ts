import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { landingChunks, measure } from './landingBudget';

function chunk(fileName: string, extra: Partial<Rollup.OutputChunk> = {}): Rollup.OutputChunk {
  return {
    type: 'chunk',
    fileName,
    code: `/* ${fileName} */ export const x = ${JSON.stringify('x'.repeat(200))};`,
    imports: [],
    dynamicImports: [],
    isEntry: false,
    isDynamicEntry: false,
    facadeModuleId: null,
    ...extra,
  } as Rollup.OutputChunk;
}

function bundle(...chunks: Rollup.OutputChunk[]): Rollup.OutputBundle {
  return Object.fromEntries(chunks.map((c) => [c.fileName, c]));
}

describe('landing page budget', () => {
  it('counts the entry, the landing route chunk and their static imports, not other routes', () => {
    const out = bundle(
      chunk('assets/index.js', { isEntry: true, imports: ['assets/vendor.js'], dynamicImports: ['assets/Landing.js'] }),
      chunk('assets/vendor.js'),
      chunk('assets/Landing.js', {
        isDynamicEntry: true,
        facadeModuleId: '/repo/web/src/pages/LandingPage.tsx',
        imports: ['assets/Icon.js', 'assets/vendor.js'],
      }),
      chunk('assets/Icon.js'),
      chunk('assets/Admin.js', { isDynamicEntry: true, facadeModuleId: '/repo/web/src/features/admin/Admin.tsx' }),
    );
    const names = landingChunks(out, 'src/pages/LandingPage.tsx').map((c) => c.fileName);
    expect(names.sort()).toEqual(['assets/Icon.js', 'assets/Landing.js', 'assets/index.js', 'assets/vendor.js']);
  });

  it('fails loudly when the landing route is not its own chunk', () => {
    const out = bundle(chunk('assets/index.js', { isEntry: true }));
    expect(() => landingChunks(out, 'src/pages/LandingPage.tsx')).toThrow(/lazy-loaded/);
  });

  it('measures raw and gzipped bytes', () => {
    const [size] = measure([chunk('assets/a.js')]);
    expect(size?.rawBytes).toBeGreaterThan(200);
    expect(size?.gzipBytes).toBeLessThan(size?.rawBytes ?? 0);
  });
});
