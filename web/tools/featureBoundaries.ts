import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web app's feature boundaries, checked like a lint rule (`npm run lint` runs this file;
 * Biome 1.9's noRestrictedImports takes exact module names only, no path patterns).
 *
 * A feature (src/features/<name>/) shows the rest of the app the modules at its root (e.g.
 * leads/WebhookManagement.tsx, zip/zipFormat.ts); its api/, components/ and routes/ folders are
 * its insides. So:
 * - a feature imports another feature's root modules only, never its insides;
 * - the router (src/app/router.tsx) alone reaches into a feature's routes/, lazily, for its pages;
 * - the shared layers (api, components, hooks, lib, session) import no feature at all.
 */

const SHARED_LAYERS = new Set(['api', 'components', 'hooks', 'lib', 'session']);
const INSIDES = new Set(['api', 'components', 'routes']);

export interface Crossing {
  /** The importing file, relative to src/ (forward slashes). */
  file: string;
  specifier: string;
  rule: string;
}

/** Relative specifiers of static imports, re-exports and dynamic imports. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(?\s*['"]([^'"]+)['"]/g];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) if (match[1]?.startsWith('.')) found.push(match[1]);
  }
  return [...new Set(found)];
}

/** What is wrong with one import of `file` (both relative to src/, forward slashes), or null. */
export function crossingOf(file: string, specifier: string): string | null {
  const target = posix.normalize(posix.join(posix.dirname(file), specifier)).split('/');
  if (target[0] !== 'features' || target.length < 2) return null;
  const [, feature, folder] = target;
  const from = file.split('/');
  if (from[0] === 'features' && from[1] === feature) return null;
  if (SHARED_LAYERS.has(from[0] ?? '')) return `the shared ${from[0]}/ layer imports no feature (here: ${feature})`;
  const inside = target.length > 3 && INSIDES.has(folder ?? '');
  if (!inside) return null;
  if (file === 'app/router.tsx' && folder === 'routes') return null;
  return `${feature}/${folder}/ is inside the ${feature} feature: import from the modules at its root instead`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Every import across a boundary in the source tree at `srcDir`. */
export function findCrossings(srcDir: string): Crossing[] {
  const crossings: Crossing[] = [];
  for (const path of sourceFiles(srcDir)) {
    const file = relative(srcDir, path).split(sep).join('/');
    for (const specifier of importsOf(readFileSync(path, 'utf8'))) {
      const rule = crossingOf(file, specifier);
      if (rule) crossings.push({ file, specifier, rule });
    }
  }
  return crossings;
}

export const WEB_SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

// Run as a script (npm run lint): list the crossings and fail on any.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const crossings = findCrossings(WEB_SRC);
  for (const c of crossings) console.error(`web/src/${c.file}: import '${c.specifier}': ${c.rule}`);
  if (crossings.length > 0) process.exit(1);
}
