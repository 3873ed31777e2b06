import { describe, expect, it } from 'vitest';
import { inEntryGraph, needsContracts, sharedChunk } from './sharedChunk';

/** A module graph as Rollup describes it: each module's static imports; importers derived. */
function graph(entry: string, imports: Record<string, string[]>) {
  const ids = new Set([entry, ...Object.keys(imports), ...Object.values(imports).flat()]);
  const info = (id: string) =>
    ids.has(id)
      ? {
          isEntry: id === entry,
          importedIds: imports[id] ?? [],
          importers: [...ids].filter((other) => (imports[other] ?? []).includes(id)),
        }
      : null;
  return { getModuleInfo: info };
}

const W = '/repo/web';
const modules = graph(`${W}/index.html`, {
  [`${W}/index.html`]: [`${W}/src/main.tsx`],
  [`${W}/src/main.tsx`]: [`${W}/src/components/SiteHeader.tsx`, '/repo/node_modules/react/index.js'],
  [`${W}/src/components/SiteHeader.tsx`]: [`${W}/src/components/Icon.tsx`],
  // Reached only from lazy pages (their dynamic imports are not static importers).
  [`${W}/src/components/ListCard.tsx`]: [`${W}/src/components/Icon.tsx`, `${W}/src/components/QueryState.tsx`],
  [`${W}/src/components/PasswordField.tsx`]: ['/repo/packages/contracts/src/index.ts'],
  [`${W}/src/components/SignInForm.tsx`]: [`${W}/src/components/PasswordField.tsx`],
  '/repo/packages/contracts/src/index.ts': ['/repo/node_modules/@sinclair/typebox/build/index.mjs'],
  [`${W}/src/components/usmap/MapPanel.tsx`]: [`${W}/src/components/Icon.tsx`],
  '/repo/node_modules/@tanstack/react-query/build/modern/useInfiniteQuery.js': [],
  [`${W}/src/features/zip/zipFormat.ts`]: ['/repo/packages/contracts/src/index.ts'],
});
const chunkOf = (id: string) => sharedChunk(id, modules);

describe('the shared chunk', () => {
  it('leaves what the entry loads in the entry chunk, app', () => {
    expect(inEntryGraph(`${W}/src/components/Icon.tsx`, modules.getModuleInfo)).toBe(true);
    expect(chunkOf(`${W}/src/components/Icon.tsx`)).toBe('app');
    expect(chunkOf('/repo/node_modules/react/index.js')).toBe('app');
    expect(chunkOf(`${W}/index.html`)).toBeUndefined();
  });

  it('gathers the shared pieces and TanStack hooks that only later pages load', () => {
    expect(chunkOf(`${W}/src/components/ListCard.tsx`)).toBe('shared');
    expect(chunkOf(`${W}/src/components/QueryState.tsx`)).toBe('shared');
    expect(chunkOf('/repo/node_modules/@tanstack/react-query/build/modern/useInfiniteQuery.js')).toBe('shared');
  });

  it('keeps out the map loaded on demand, the pieces that need the contracts, and features', () => {
    expect(chunkOf(`${W}/src/components/usmap/MapPanel.tsx`)).toBeUndefined();
    expect(needsContracts(`${W}/src/components/SignInForm.tsx`, modules.getModuleInfo)).toBe(true);
    expect(chunkOf(`${W}/src/components/SignInForm.tsx`)).toBeUndefined();
    expect(chunkOf(`${W}/src/components/PasswordField.tsx`)).toBeUndefined();
    expect(chunkOf('/repo/packages/contracts/src/index.ts')).toBeUndefined();
    expect(chunkOf(`${W}/src/features/zip/zipFormat.ts`)).toBeUndefined();
  });
});

describe('the walks of the module graph', () => {
  it('are remembered for the build: each module is looked up a few times, not once per other module', () => {
    // A chain of 300 modules that only a lazy page reaches: each walk up from one passes all below it.
    const chain = Array.from({ length: 300 }, (_, i) => `${W}/src/lib/m${i}.ts`);
    const imports = Object.fromEntries(chain.map((id, i) => [id, chain.slice(i + 1, i + 2)]));
    const big = graph(`${W}/index.html`, { [`${W}/index.html`]: [`${W}/src/main.tsx`], ...imports });
    let lookups = 0;
    const counted = (id: string) => {
      lookups += 1;
      return big.getModuleInfo(id);
    };
    const meta = { getModuleInfo: counted };
    for (const id of chain) expect(sharedChunk(id, meta)).toBe('shared');
    // Unremembered, the walks up and down would look up 300 × 300 / 2 modules each.
    expect(lookups).toBeLessThan(chain.length * 8);
  });
});
