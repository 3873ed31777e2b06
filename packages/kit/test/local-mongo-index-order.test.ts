import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Collection, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { MONGO_JAVA_SERVER_VERSION, cacheDir, waitForPort } from '../../../infra/local/servers.mjs';

// The local MongoDB launcher orders unique-index keys its own way (docs/decisions/005). A data
// file written by stock mongo-java-server must keep working: found by every index, duplicates
// still refused, after the launcher re-sorted it and after a second start.
const home = join(cacheDir, `mongo-java-server-${MONGO_JAVA_SERVER_VERSION}`);
const provisioned = existsSync(join(home, 'classes', 'MongoLauncher.class'));
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

describe.skipIf(!provisioned)('the local MongoDB launcher', () => {
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

  async function expectIndexesWork(things: Collection) {
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
    let things = client.db('order').collection('things');
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
      })) as never,
    );
    await stop(client);

    client = await startOurs();
    expect(output).toContain('re-sorted index order.things._index_seq_1 (2000 keys)');
    things = client.db('order').collection('things');
    await expectIndexesWork(things);
    await things.insertOne({ _id: 'new' as never, seq: 5000, rev: 0, k: 'new', n: 0 });
    await stop(client);

    // Started again: nothing to re-sort, and what the re-sorted indexes were given is there.
    client = await startOurs();
    expect(output).not.toContain('re-sorted');
    things = client.db('order').collection('things');
    await expectIndexesWork(things);
    expect(await things.findOne({ seq: 5000 })).toMatchObject({ _id: 'new' });
    await stop(client);
  }, 120_000);
});
