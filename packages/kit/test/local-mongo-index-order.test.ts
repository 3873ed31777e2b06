import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, type Collection, Long, MongoClient, ObjectId } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { MONGO_JAVA_SERVER_VERSION, cacheDir, waitForPort } from '../../../infra/local/servers.mjs';
import { serversPresent } from '../../../test/support/servers.js';

// The local MongoDB launcher orders unique-index keys its own way and writes them in a compact
// form of its own (docs/decisions/005). A data file written by stock mongo-java-server must keep
// working: found by every index, duplicates still refused, after the launcher re-sorted it and
// after a second start; and keys of every kind the compact form holds must read back equal.
const home = join(cacheDir, `mongo-java-server-${MONGO_JAVA_SERVER_VERSION}`);
// Missing launcher: the file fails (CI provisions it) unless ALLOW_SKIP_WITHOUT_SERVERS=1 says to skip.
const provisioned = serversPresent(
  existsSync(join(home, 'classes', 'MongoLauncher.class')),
  `the local MongoDB launcher is not provisioned in ${home} (run npm run provision)`,
);
const port = 27118 + Number(process.env.TEST_PORT_OFFSET ?? 0);

const STOCK_LAUNCHER = `
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
public final class Stock {
  public static void main(String[] a) {
    MongoServer s = new MongoServer(new H2Backend(a[0]));
    Runtime.getRuntime().addShutdownHook(new Thread(s::shutdown));
    s.bind("127.0.0.1", Integer.parseInt(a[1]));
  }
}`;

interface Thing {
  _id: string;
  seq: number;
  rev: number;
  k: string;
  n: number;
}

describe.runIf(provisioned)('the local MongoDB launcher', () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-mongo-order-'));
  const file = join(dir, 'data.mv');
  let server: ChildProcess | null = null;
  let output = '';

  async function start(args: string[]) {
    output = '';
    server = spawn('java', ['-Xmx256m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    server.stdout?.on('data', collect);
    server.stderr?.on('data', collect);
    await waitForPort(port, { timeoutMs: 60_000, name: 'mongo (index order test)' });
    return MongoClient.connect(`mongodb://127.0.0.1:${port}/`);
  }
  async function stop(client: MongoClient) {
    await client.close();
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server?.kill('SIGTERM');
    await exited;
    server = null;
  }
  const startOurs = () =>
    start(['-cp', `${home}/libs/*:${home}/classes`, 'MongoLauncher', file, '127.0.0.1', String(port)]);

  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectIndexesWork(things: Collection<Thing>) {
    for (const i of [0, 1, 17, 999, 1999]) {
      expect(await things.findOne({ seq: i })).toMatchObject({ _id: `id-${i}` });
      expect(await things.findOne({ _id: `id-${i}`, rev: i % 3 })).toMatchObject({ seq: i });
      expect(await things.findOne({ k: `key-${i % 7}`, n: i })).toMatchObject({ seq: i });
    }
    await expect(things.insertOne({ _id: 'again', seq: 5, rev: 0, k: 'x', n: -1 })).rejects.toMatchObject({
      code: 11000,
    });
    await expect(things.insertOne({ _id: 'again', seq: -5, rev: 0, k: 'key-3', n: 3 })).rejects.toMatchObject({
      code: 11000,
    });
  }

  it('serves a data file written by stock mongo-java-server, re-sorted once', async () => {
    const stockSource = join(dir, 'Stock.java');
    writeFileSync(stockSource, STOCK_LAUNCHER);
    let client = await start(['-cp', `${home}/libs/*`, stockSource, file, String(port)]);
    let things = client.db('order').collection<Thing>('things');
    await things.createIndex({ seq: 1 }, { unique: true });
    await things.createIndex({ _id: 1, rev: 1 }, { unique: true });
    await things.createIndex({ k: 1, n: 1 }, { unique: true });
    await things.insertMany(
      Array.from({ length: 2000 }, (_, i) => ({
        _id: `id-${i}`,
        seq: i,
        rev: i % 3,
        k: `key-${i % 7}`,
        n: i,
      })),
    );
    await stop(client);

    client = await startOurs();
    expect(output).toContain('re-sorted index order.things._index_seq_1 (2000 keys)');
    things = client.db('order').collection<Thing>('things');
    await expectIndexesWork(things);
    await things.insertOne({ _id: 'new', seq: 5000, rev: 0, k: 'new', n: 0 });
    await stop(client);

    // Started again: nothing to re-sort, and what the re-sorted indexes were given is there.
    client = await startOurs();
    expect(output).not.toContain('re-sorted');
    things = client.db('order').collection<Thing>('things');
    await expectIndexesWork(things);
    expect(await things.findOne({ seq: 5000 })).toMatchObject({ _id: 'new' });
    await stop(client);
  }, 120_000);

  it('reads back documents and index keys of every kind after a restart: ids, dates, numbers, booleans, nulls, missing fields', async () => {
    const kinds = join(dir, 'kinds.mv');
    const startOn = () =>
      start(['-cp', `${home}/libs/*:${home}/classes`, 'MongoLauncher', kinds, '127.0.0.1', String(port)]);
    const oid = (i: number) => new ObjectId(i.toString(16).padStart(24, '0'));
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1234);
    const docs = Array.from({ length: 500 }, (_, i) => ({
      _id: oid(i + 1),
      at: at(i),
      big: Long.fromNumber(2 ** 40 + i),
      ratio: i + 0.5,
      flag: i % 2 === 0,
      pair: i,
      ...(i === 0 ? {} : { maybe: `m-${i}` }),
      nested: {
        list: [i, `two-${i}`, { three: 3.25, none: null }],
        when: at(i),
        bytes: new Binary(Buffer.from([i % 256, 0, 255])),
      },
    }));
    let client = await startOn();
    let kept = client.db('kinds').collection('kept');
    await kept.createIndex({ at: 1 }, { unique: true });
    await kept.createIndex({ big: 1, ratio: 1 }, { unique: true });
    await kept.createIndex({ flag: 1, pair: 1 }, { unique: true });
    await kept.createIndex({ maybe: 1 }, { unique: true });
    await kept.insertMany(docs as never);
    await stop(client);

    client = await startOn();
    kept = client.db('kinds').collection('kept');
    for (const i of [0, 1, 2, 250, 499]) {
      const doc = docs[i] as (typeof docs)[number];
      expect(await kept.findOne({ _id: oid(i + 1) as never })).toMatchObject({ pair: i });
      expect(await kept.findOne({ at: at(i) })).toMatchObject({ pair: i });
      expect(await kept.findOne({ big: doc.big, ratio: doc.ratio })).toMatchObject({ pair: i });
      expect(await kept.findOne({ flag: doc.flag, pair: i })).toMatchObject({ pair: i });
    }
    const refused = { code: 11000 };
    await expect(kept.insertOne({ _id: oid(3) as never, pair: -1, flag: true })).rejects.toMatchObject(refused);
    await expect(kept.insertOne({ at: at(7), pair: -2, flag: true })).rejects.toMatchObject(refused);
    await expect(kept.insertOne({ flag: true, pair: 4 })).rejects.toMatchObject(refused);
    // Documents are stored in a form of their own too: every value comes back as it went in.
    const raw = kept.db.collection('kept');
    for (const i of [0, 1, 499]) {
      expect(await raw.findOne({ _id: oid(i + 1) as never }, { promoteLongs: false, promoteBuffers: false })).toEqual(
        docs[i],
      );
    }
    // The one document without `maybe` holds that index's missing-field key, which null matches.
    await expect(kept.insertOne({ pair: -3, flag: false, maybe: 'm-9' })).rejects.toMatchObject(refused);
    await expect(kept.insertOne({ pair: -4, flag: false })).rejects.toMatchObject(refused);
    await expect(kept.insertOne({ pair: -5, flag: false, maybe: null })).rejects.toMatchObject(refused);
    expect(await kept.findOne({ maybe: 'm-250' })).toMatchObject({ pair: 250 });
    await stop(client);
  }, 120_000);
});
