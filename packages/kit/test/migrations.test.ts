import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import {
  type IndexSpec,
  type MigrationPlan,
  dropIndexesStep,
  missingIndexes,
  pendingMigrations,
  requireIndexes,
  runMigrations,
} from '../src/index.js';

// Index changes as migration steps (issue 41, decision 028), on the run's real MongoDB, each case
// in a database of its own. Three releases of one collection's indexes:
//   v0 read users by `nick` (nick_1);
//   v1 stopped reading by nick (it no longer lists nick_1, and does not drop it) and added `name_1`;
//   v2, rolled out while v1 still runs, adds the unique `handle_unique`, stops listing `name_1`,
//      and drops `nick_1`: no release still running (v1, v2) reads through it.
const env = testEnv();
let client: MongoClient;
const databases: Db[] = [];

beforeAll(async () => {
  client = await new MongoClient(env.mongoUrl).connect();
});
afterAll(async () => {
  for (const db of databases) await db.dropDatabase().catch(() => undefined);
  await client?.close();
});

function freshDb(): Db {
  const db = client.db(`kit_migrations_${randomUUID().slice(0, 8)}`);
  databases.push(db);
  return db;
}

const email: IndexSpec = { collection: 'users', key: { email: 1 }, unique: true, name: 'email_1' };
const nick: IndexSpec = { collection: 'users', key: { nick: 1 }, name: 'nick_1' };
const name: IndexSpec = { collection: 'users', key: { name: 1 }, name: 'name_1' };
const handle: IndexSpec = {
  collection: 'users',
  key: { handle: 1 },
  unique: true,
  sparse: true,
  name: 'handle_unique',
};

const v0: MigrationPlan = { indexes: [email, nick], steps: [] };
const v1: MigrationPlan = { indexes: [email, name], steps: [] };
const v2: MigrationPlan = {
  indexes: [email, handle],
  steps: [dropIndexesStep('drop-nick', [{ collection: 'users', name: 'nick_1' }], [email, handle])],
};

const indexNames = async (db: Db) =>
  (await db.collection('users').listIndexes().toArray()).map((i) => String(i.name)).sort();

/** What each release does with the database, as its start checks and its writes see it. */
async function works(db: Db, plan: MigrationPlan): Promise<void> {
  await requireIndexes(db, plan.indexes);
  const users = db.collection('users');
  const id = randomUUID();
  await users.insertOne({ _id: id as never, email: `${id}@example.test`, name: 'N', handle: `h-${id}` });
  // The unique email both releases rely on still refuses a second account for one address.
  await expect(users.insertOne({ email: `${id}@example.test` })).rejects.toMatchObject({ code: 11000 });
  if (plan.indexes.includes(handle))
    await expect(users.insertOne({ email: `other-${id}@example.test`, handle: `h-${id}` })).rejects.toMatchObject({
      code: 11000,
    });
}

describe('index changes as migration steps', () => {
  it('two releases rolled out side by side: applied in either order, both releases find their indexes and work', async () => {
    for (const order of [
      [v1, v2],
      [v2, v1],
    ]) {
      const db = freshDb();
      // The database as v0 left it.
      await runMigrations(db, v0);
      for (const plan of order) await runMigrations(db, plan);
      await works(db, v1);
      await works(db, v2);
      // Created before dropped: v1's name_1 stays (v1 may still be running); only v0's nick_1 went.
      expect(await indexNames(db)).toEqual(['_id_', 'email_1', 'handle_unique', 'name_1']);
      expect(await pendingMigrations(db, v1)).toEqual([]);
      expect(await pendingMigrations(db, v2)).toEqual([]);
    }
  });

  it('runs each step once and the index step every time; a second run changes nothing', async () => {
    const db = freshDb();
    const first = await runMigrations(db, v2);
    expect(first.map((r) => [r.name, r.ran])).toEqual([
      ['indexes', true],
      ['drop-nick', true],
    ]);
    expect(first[0]?.result).toEqual({ created: ['users.email_1', 'users.handle_unique'] });
    const second = await runMigrations(db, v2);
    expect(second.map((r) => [r.name, r.ran])).toEqual([
      ['indexes', true],
      ['drop-nick', false],
    ]);
    expect(second[0]?.result).toEqual({ created: [] });
    // An index removed by hand is pending again, and the next run puts it back.
    await db.collection('users').dropIndex('handle_unique');
    expect(await pendingMigrations(db, v2)).toEqual(['indexes']);
    await runMigrations(db, v2);
    expect(await missingIndexes(db, v2.indexes)).toEqual([]);
  });

  it('never drops an index the release still lists, nor rebuilds one whose definition changed', async () => {
    const db = freshDb();
    await runMigrations(db, v1);
    const careless: MigrationPlan = {
      indexes: [email, name],
      steps: [dropIndexesStep('drop-name', [{ collection: 'users', name: 'name_1' }], [email, name])],
    };
    await expect(runMigrations(db, careless)).rejects.toThrow('users.name_1 is still in use');
    const changed: MigrationPlan = { indexes: [email, { ...name, key: { name: -1 } }], steps: [] };
    await expect(runMigrations(db, changed)).rejects.toThrow('users.name_1 exists with another definition');
    // The same key made unique (or sparse) is another index too: a start does not take it for the listed one.
    const unique: MigrationPlan = { indexes: [email, { ...name, unique: true }], steps: [] };
    expect(await missingIndexes(db, unique.indexes)).toEqual(['users.name_1']);
    await expect(runMigrations(db, unique)).rejects.toThrow('users.name_1 exists with another definition');
    expect(await missingIndexes(db, [email, { ...name, sparse: true }])).toEqual(['users.name_1']);
    expect(await indexNames(db)).toEqual(['_id_', 'email_1', 'name_1']);
  });

  it('a start without its indexes names each missing one and what to run', async () => {
    const db = freshDb();
    await expect(requireIndexes(db, v2.indexes)).rejects.toThrow(
      `database ${db.databaseName} lacks the indexes users.email_1, users.handle_unique: run \`npm run migrate\``,
    );
  });

  it('a service started on a database not migrated stops, saying which index is missing and to run npm run migrate', async () => {
    const root = new URL('../../..', import.meta.url).pathname;
    const db = freshDb();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/leads/src/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        MONGO_URL: env.mongoUrl,
        MONGO_DB: db.databaseName,
        KAFKA_BROKERS: env.kafkaBrokers,
        REDIS_URL: env.redisUrl,
        INTERNAL_SECRET: env.internalSecret,
        EVENT_SECRET_KEY: env.eventSecretKey,
        // Never listened on: the start stops before.
        PORT: String((env.servicePorts.leads ?? 24005) + 50),
        METRICS_PORT: '0',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk) => {
        output += chunk;
      });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code, output).not.toBe(0);
    expect(output).toContain('lacks the indexes webhook_keys.keyHash_unique');
    expect(output).toContain('run `npm run migrate`');
  }, 60_000);
});
