import type { Rollup } from 'vite';

type ModuleInfoOf = (id: string) => Pick<Rollup.ModuleInfo, 'isEntry' | 'importers' | 'importedIds'> | null;

/**
 * The app's shared pieces (web/src/components, hooks, lib, api, session) and TanStack Query's
 * hooks: by default Rollup gives each group of them that a different set of pages uses a chunk of
 * its own, and a page arrived with 15 requests of 1-4 KB after its route chunk. The gateway
 * speaks HTTP/1.1 and a browser opens 6 connections to it, so on a phone's network that is three
 * round trips more before the page can render (docs/decisions/026).
 */
const SHARED = /\/web\/src\/(components|hooks|lib|api|session)\/|\/node_modules\/@tanstack\//;
/** The US map is loaded on demand (d3-geo and the atlas with it): never part of every page. */
const ON_DEMAND = /\/web\/src\/components\/usmap\//;

/**
 * The answers already known in one build's module graph (Rollup hands `manualChunks` the same
 * `getModuleInfo` for every module of a build), one map per question: without them every module
 * walked the graph anew, a walk per module over thousands of modules.
 */
const known = new WeakMap<ModuleInfoOf, { entry: Map<string, boolean>; contracts: Map<string, boolean> }>();

function answersOf(info: ModuleInfoOf) {
  let answers = known.get(info);
  if (!answers) {
    answers = { entry: new Map(), contracts: new Map() };
    known.set(info, answers);
  }
  return answers;
}

/**
 * Whether a walk from `id` along `next` reaches a module that is `found`. A walk that finds
 * nothing has passed every module reachable from `id`, so none of them reaches one either: all of
 * them are remembered as false, and later walks stop there.
 */
function reaches(
  id: string,
  next: (id: string) => readonly string[],
  found: (id: string) => boolean,
  answers: Map<string, boolean>,
): boolean {
  const seen = new Set<string>();
  const walk = (at: string): boolean => {
    const answer = answers.get(at);
    if (answer !== undefined) return answer;
    if (seen.has(at)) return false;
    seen.add(at);
    return found(at) || next(at).some(walk);
  };
  const result = walk(id);
  if (result) answers.set(id, true);
  else for (const at of seen) answers.set(at, false);
  return result;
}

/** Whether `id` is loaded with the entry: a chain of static imports leads to it from there. */
export function inEntryGraph(id: string, info: ModuleInfoOf): boolean {
  return reaches(
    id,
    (at) => info(at)?.importers ?? [],
    (at) => info(at)?.isEntry === true,
    answersOf(info).entry,
  );
}

/** The contracts and TypeBox (40 KB): the forms that read a limit from them load them, no other page. */
const CONTRACTS = /\/packages\/contracts\/|\/node_modules\/@sinclair\/typebox\//;

/** Whether `id` needs the contracts at run time: a chain of static imports leads from it to them. */
export function needsContracts(id: string, info: ModuleInfoOf): boolean {
  return reaches(
    id,
    (at) => info(at)?.importedIds ?? [],
    (at) => CONTRACTS.test(at.replaceAll('\\', '/')),
    answersOf(info).contracts,
  );
}

/**
 * `manualChunks`: what the entry loads goes into `app` (the same code as before); the shared
 * pieces it does not load into one chunk, `shared`, which every other page loads in one request.
 * `app` is named because Rollup pulls the dependencies of a named chunk into it unless they are
 * named elsewhere: without it, `shared` would take React and the router, and the landing page
 * would load it all. For the same reason a piece that needs the contracts (the sign-in and
 * password forms) stays out of `shared`, or every page would load TypeBox. Anything else is left
 * where Rollup puts it.
 */
export function sharedChunk(id: string, meta: { getModuleInfo: ModuleInfoOf }): string | undefined {
  const path = id.replaceAll('\\', '/');
  if (path.endsWith('.html')) return undefined;
  if (inEntryGraph(id, meta.getModuleInfo)) return 'app';
  if (SHARED.test(path) && !ON_DEMAND.test(path) && !needsContracts(id, meta.getModuleInfo)) return 'shared';
  return undefined;
}
