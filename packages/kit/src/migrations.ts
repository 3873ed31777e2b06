import { Type } from '@sinclair/typebox';
import type { Db, Document } from 'mongodb';
import { MongoConfig, loadConfig } from './config.js';
import { connectMongoDriver, databaseOf } from './connections/mongo.js';
import { redactUrl } from './startup.js';

/**
 * Index changes and one-off data changes of a service's database, run once per release by
 * `npm run migrate` (the migrate Job in Kubernetes, `npm start` and the test stack locally), never
 * by a service at start: during a rolling update two releases run side by side, and a start that
 * synchronised the indexes to its own list dropped the other release's (issue 41). So:
 *
 * - a release's `indexes` are created (never dropped) by every run, before its steps;
 * - an index a release stops using is dropped by a step of a LATER release (`dropIndexesStep`),
 *   once no running release reads through it; that step refuses to drop an index the release
 *   still lists;
 * - an index whose definition changes gets a new name (created beside the old one, which a later
 *   release drops): the same name with another definition fails the run, it is never rebuilt;
 * - a service only checks at start that its indexes exist (`requireIndexes`).
 * docs/decisions/028-index-changes-as-migration-steps.md.
 */
export interface IndexSpec {
  collection: string;
  name: string;
  key: Record<string, 1 | -1>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
}

/** A one-off change, recorded in the `migrations` collection when done; idempotent. */
export interface MigrationStep {
  name: string;
  run: (db: Db) => Promise<unknown>;
}

/** What a release asks of its database: its indexes (created on every run) and its steps, in order. */
export interface MigrationPlan {
  indexes: IndexSpec[];
  steps: MigrationStep[];
}

interface MigrationDoc {
  _id: string;
  done_at: Date;
  result: unknown;
}

const MIGRATIONS_COLLECTION = 'migrations';
/** The name under which the index step reports and `--check` lists missing indexes. */
export const INDEXES_STEP = 'indexes';

/**
 * Whether an index as the server lists it is the one specified: the same key, in order, and the
 * same options that decide what it holds or refuses (an index `unique` in one release and not in
 * the other is another index, never taken for the same).
 */
function sameIndex(found: Document, spec: IndexSpec): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return (
    same(Object.entries(found.key), Object.entries(spec.key)) &&
    Boolean(found.unique) === Boolean(spec.unique) &&
    Boolean(found.sparse) === Boolean(spec.sparse) &&
    same(found.partialFilterExpression, spec.partialFilterExpression) &&
    found.expireAfterSeconds === spec.expireAfterSeconds
  );
}

/** The indexes of a collection, by name; none for a collection that does not exist yet. */
async function indexesOf(db: Db, collection: string): Promise<Map<string, Document>> {
  try {
    const list = await db.collection(collection).listIndexes().toArray();
    return new Map(list.map((i) => [String(i.name), i]));
  } catch (err) {
    // NamespaceNotFound: nothing created yet, so every index is missing.
    if ((err as { code?: number }).code === 26) return new Map();
    throw err;
  }
}

const byCollection = <T extends { collection: string }>(specs: T[]) => {
  const groups = new Map<string, T[]>();
  for (const spec of specs) groups.set(spec.collection, [...(groups.get(spec.collection) ?? []), spec]);
  return groups;
};

/** `<collection>.<name>` of each listed index that is absent, or present with another definition. */
export async function missingIndexes(db: Db, specs: IndexSpec[]): Promise<string[]> {
  const missing: string[] = [];
  for (const [collection, wanted] of byCollection(specs)) {
    const present = await indexesOf(db, collection);
    for (const spec of wanted) {
      const found = present.get(spec.name);
      if (!found || !sameIndex(found, spec)) missing.push(`${collection}.${spec.name}`);
    }
  }
  return missing;
}

/**
 * Creates the listed indexes that are not there; never drops one. An index of the same name with
 * another definition fails (MongoDB's IndexOptionsConflict / IndexKeySpecsConflict): a changed
 * index takes a new name. Answers the `<collection>.<name>` created.
 */
export async function createIndexes(db: Db, specs: IndexSpec[]): Promise<string[]> {
  const created: string[] = [];
  for (const [collection, wanted] of byCollection(specs)) {
    const present = await indexesOf(db, collection);
    const absent = wanted.filter((spec) => !present.has(spec.name));
    const clash = wanted.find((spec) => {
      const found = present.get(spec.name);
      return found && !sameIndex(found, spec);
    });
    if (clash)
      throw new Error(
        `index ${collection}.${clash.name} exists with another definition: a changed index needs a new name (decision 028)`,
      );
    if (absent.length === 0) continue;
    // The spec's own fields are the driver's index description; `collection` is not one of them.
    await db.collection(collection).createIndexes(absent.map(({ collection: _, ...index }) => index));
    created.push(...absent.map((spec) => `${collection}.${spec.name}`));
  }
  return created;
}

/**
 * A step that drops indexes a previous release stopped using. Appended in the release AFTER the
 * one that stopped listing them (the release rolled out beside it no longer reads through them).
 * Refuses to drop an index the running release lists (`current`).
 */
export function dropIndexesStep(
  name: string,
  retired: { collection: string; name: string }[],
  current: IndexSpec[],
): MigrationStep {
  return {
    name,
    run: async (db) => {
      const kept = retired.filter((r) => current.some((c) => c.collection === r.collection && c.name === r.name));
      if (kept.length > 0)
        throw new Error(`${name}: ${kept.map((r) => `${r.collection}.${r.name}`).join(', ')} is still in use`);
      const dropped: string[] = [];
      for (const [collection, indexes] of byCollection(retired)) {
        const present = await indexesOf(db, collection);
        for (const index of indexes.filter((i) => present.has(i.name))) {
          await db.collection(collection).dropIndex(index.name);
          dropped.push(`${collection}.${index.name}`);
        }
      }
      return { dropped };
    },
  };
}

/**
 * A service's start: fails, naming every missing index and what to run, unless the release's
 * indexes are all there. Reading the index lists costs one round trip per collection.
 */
export async function requireIndexes(db: Db, specs: IndexSpec[]): Promise<void> {
  const missing = await missingIndexes(db, specs);
  if (missing.length === 0) return;
  throw new Error(
    `database ${db.databaseName} lacks the ${missing.length === 1 ? 'index' : 'indexes'} ${missing.join(', ')}: ` +
      'run `npm run migrate` (in Kubernetes, the migrate Job) for this release, then start again',
  );
}

/**
 * Creates the plan's indexes (every run), then runs its steps not recorded as done (all with
 * `again`), recording each when it finishes; answers what each did.
 */
export async function runMigrations(
  db: Db,
  plan: MigrationPlan,
  { again = false, log = () => undefined }: { again?: boolean; log?: (line: string) => void } = {},
): Promise<{ name: string; ran: boolean; result?: unknown }[]> {
  const done = db.collection<MigrationDoc>(MIGRATIONS_COLLECTION);
  const created = await createIndexes(db, plan.indexes);
  log(`${INDEXES_STEP}: ${created.length === 0 ? 'all present' : `created ${created.join(', ')}`}`);
  const out: { name: string; ran: boolean; result?: unknown }[] = [
    { name: INDEXES_STEP, ran: true, result: { created } },
  ];
  const recorded = await doneSteps(db);
  for (const step of plan.steps) {
    const doneAt = recorded.get(step.name);
    if (doneAt && !again) {
      out.push({ name: step.name, ran: false });
      log(`${step.name}: done on ${doneAt.toISOString()}`);
      continue;
    }
    const result = await step.run(db);
    await done.updateOne(
      { _id: step.name },
      { $set: { done_at: new Date(), result: result ?? null } },
      { upsert: true },
    );
    out.push({ name: step.name, ran: true, result });
    log(`${step.name}: ${result === undefined ? 'done' : JSON.stringify(result)}`);
  }
  return out;
}

/** When each step recorded as done finished, by name: one read for the whole plan. */
async function doneSteps(db: Db): Promise<Map<string, Date>> {
  const docs = await db
    .collection<MigrationDoc>(MIGRATIONS_COLLECTION)
    .find({}, { projection: { done_at: 1 } })
    .toArray();
  return new Map(docs.map((d) => [d._id, d.done_at]));
}

/** What a run would do: `indexes` while one is missing, and every step not recorded as done. */
export async function pendingMigrations(db: Db, plan: MigrationPlan): Promise<string[]> {
  const done = await doneSteps(db);
  const indexes = (await missingIndexes(db, plan.indexes)).length > 0 ? [INDEXES_STEP] : [];
  return [...indexes, ...plan.steps.map((s) => s.name).filter((name) => !done.has(name))];
}

/**
 * `node <service>/cli/migrate` [--again | --check]: one service's database (MONGO_DB, else its
 * default). `--check` only says whether anything is pending (exit 3 if so). The root's
 * `npm run migrate` runs it for every service (packages/kit/bin/migrate.mjs).
 */
export async function migrateCommand(argv: string[], defaultDb: string, plan: MigrationPlan): Promise<number> {
  const flags = new Set(argv);
  if ([...flags].some((f) => f !== '--again' && f !== '--check')) {
    console.error('Usage: npm run migrate [-- --again | --check]');
    return 2;
  }
  const config = loadConfig(Type.Object({ ...MongoConfig, MONGO_DB: Type.String({ default: defaultDb }) }));
  // A one-off over every document: far longer than one call's deadline.
  const conn = await connectMongoDriver(config.MONGO_URL, config.MONGO_DB, { timeoutMs: 600_000 }).catch(
    (err: Error) => {
      throw new Error(`Could not reach MongoDB at MONGO_URL=${redactUrl(config.MONGO_URL)}: ${err.message}`);
    },
  );
  try {
    const db = databaseOf(conn);
    const log = (line: string) => console.log(`${config.MONGO_DB}: ${line}`);
    if (flags.has('--check')) {
      const pending = await pendingMigrations(db, plan);
      log(pending.length === 0 ? 'no migration pending' : `pending: ${pending.join(', ')}`);
      return pending.length === 0 ? 0 : 3;
    }
    await runMigrations(db, plan, { again: flags.has('--again'), log });
    return 0;
  } finally {
    await conn.close();
  }
}
