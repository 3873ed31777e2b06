import type { Db } from 'mongodb';
import { collections, prepare } from '../data/collections.js';
import { assignProperties } from './properties.js';
import { fileZipCodes } from './zip-postings.js';

/**
 * The requests database's one-off changes, in order. Each is idempotent (running it again changes
 * nothing), so an interrupted run is simply run again; a later change (a new index, a field to
 * fill) is appended here and `npm run migrate` / the migrate Job run it with the others.
 */
export const MIGRATIONS: { name: string; run: (db: Db) => Promise<unknown> }[] = [
  // The service's indexes, as a start builds them: later steps read through them.
  { name: 'indexes', run: (db) => prepare(collections(db)) },
  { name: 'properties', run: assignProperties },
  { name: 'zip-postings', run: fileZipCodes },
];

interface MigrationDoc {
  _id: string;
  done_at: Date;
  result: unknown;
}

/**
 * Runs the migrations not recorded as done (all of them with `again`), recording each when it
 * finishes; answers what each run did. `indexes` runs every time (it is cheap and a new index may
 * have joined it).
 */
export async function runMigrations(
  db: Db,
  { again = false, log = () => undefined }: { again?: boolean; log?: (line: string) => void } = {},
): Promise<{ name: string; ran: boolean; result?: unknown }[]> {
  const done = db.collection<MigrationDoc>('migrations');
  const out: { name: string; ran: boolean; result?: unknown }[] = [];
  for (const migration of MIGRATIONS) {
    const recorded = await done.findOne({ _id: migration.name });
    if (recorded && !again && migration.name !== 'indexes') {
      out.push({ name: migration.name, ran: false });
      log(`${migration.name}: done on ${recorded.done_at.toISOString()}`);
      continue;
    }
    const result = await migration.run(db);
    await done.updateOne(
      { _id: migration.name },
      { $set: { done_at: new Date(), result: result ?? null } },
      { upsert: true },
    );
    out.push({ name: migration.name, ran: true, result });
    log(`${migration.name}: ${result === undefined ? 'done' : JSON.stringify(result)}`);
  }
  return out;
}

/** Whether every migration is recorded as done (npm start runs them only when one is not). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const done = new Set(
    (
      await db
        .collection<MigrationDoc>('migrations')
        .find({}, { projection: { _id: 1 } })
        .toArray()
    ).map((d) => d._id),
  );
  return MIGRATIONS.map((m) => m.name).filter((name) => !done.has(name));
}
