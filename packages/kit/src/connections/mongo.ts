import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Db, MongoClient, MongoClientOptions } from 'mongodb';
import type { Connection } from 'mongoose';
import { instrumentMongo } from '../metrics/dependencies.js';
import { metricsEnabled } from '../metrics/registry.js';
import { tracesExported } from '../tracing/export.js';
import { deadlineBoundClient, deadlineBoundDb } from './mongo-deadline.js';

export {
  currentMongoDeadline,
  type MongoDeadline,
  outsideMongoDeadline,
  withEarliestMongoDeadline,
  withMongoDeadline,
} from './mongo-deadline.js';

/**
 * What the kit and a service without mongoose models use of a MongoDB connection: the database,
 * the driver's client (its events time and guard the calls) and closing. A mongoose Connection
 * is one; connectMongo without models returns the driver's own.
 */
export interface MongoConnection {
  readonly db: Db | undefined;
  getClient(): MongoClient;
  once(event: 'close', listener: () => void): unknown;
  close(): Promise<void>;
}

/**
 * The driver's options of every connection (no sessions: our local MongoDB-protocol server has no
 * multi-document transactions; see events/outbox.ts). `timeoutMs` is the driver's client-side operation timeout
 * (`timeoutMS`): server selection, connection checkout and the reply of each operation together,
 * so a MongoDB that hangs fails the call with MongoOperationTimeoutError instead of holding it
 * until the monitor gives up 30 s later. Without it (operator commands, imports run by hand) an
 * operation waits as long as the server takes. Inside a request (mongoConnection), an operation
 * gets at most what is left of the request's own MongoDB deadline (mongo-deadline.ts).
 */
function driverOptions(timeoutMs: number | undefined): MongoClientOptions {
  return {
    // Left at 5 s, though the driver (6.20) selects the server of a retried read or write with it
    // rather than with the operation's timeoutMS (a retry after ECONNREFUSED can wait it out).
    // Lowered to 1500, one service never selected MongoDB again after it was unreachable in
    // bench:faults (two runs of two; its operations timed out in server selection for minutes).
    serverSelectionTimeoutMS: 5000,
    // No retries by the driver, for that reason: a retry selects its server outside the deadline
    // (5 s with MongoDB unreachable), and within a 1.5 s deadline a retried operation rarely
    // finds MongoDB back anyway. A failed call answers 503 with Retry-After; its caller retries.
    retryReads: false,
    retryWrites: false,
    // A warm pool, filled 8 connections at a time (the driver's default: 2). With MongoDB 500 ms
    // slower every call holds its connection 500 ms, so a service needs several times the
    // connections it uses at normal speed, and each new one waits a round trip for its handshake
    // before its first command: calls timed out waiting for a connection (bench:faults, MongoDB
    // +500 ms: 83 of 177 503s were checkouts, 8 of 9 uploads; with these, 3 of 151, none).
    minPoolSize: 10,
    maxConnecting: 8,
    ...(timeoutMs === undefined ? {} : { timeoutMS: timeoutMs }),
    // Command events time every operation for the metrics (metrics/dependencies.ts) and make the
    // MongoDB spans of traces (tracing/dependencies.ts); with both off, they cost nothing.
    monitorCommands: metricsEnabled() || tracesExported(),
  };
}

/**
 * Opens the service's own database through mongoose, for services with mongoose models (auth,
 * notifications, zipcodes, the operator commands). Options: driverOptions above.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  options: { timeoutMs?: number } = {},
): Promise<Connection> {
  // Loaded here, not at import: every process imports the kit, but the gateway and files never
  // open MongoDB, and mongoose with its driver costs each of them RSS (bench:memory).
  const { default: mongoose } = await import('mongoose');
  // The driver mongoose runs on (one copy in node_modules). The client is opened here and given
  // to mongoose (its public setClient) so that the databases mongoose takes from it, and every
  // model's collection with them, run under the request's deadline (mongo-deadline.ts).
  const driver = mongoose.mongo;
  const client = new driver.MongoClient(url, driverOptions(options.timeoutMs));
  await client.connect();
  const conn = mongoose.createConnection();
  // Written into the connection's `config` (its documented options hash), not through
  // `conn.set`, which stores a key the config does not hold yet in `options`, where these three
  // are not read: mongoose would then buffer, build indexes and create collections on its own.
  Object.assign(conn.config, {
    // Mongoose would otherwise hold a model's call for 10 s while it thinks it is disconnected;
    // the driver's own deadline is the one that should answer. Safe: the client is connected
    // before any model is used.
    bufferCommands: false,
    // Indexes are built by the migrations and checked at start (decision 028), never by mongoose.
    autoIndex: false,
    // Collections are created by that index build (or ensureCollections), never by mongoose in
    // the background as well: mongo-java-server fails one of two concurrent creations of a
    // collection with an error mongoose does not recognise ("Document with key ... already existed").
    autoCreate: false,
  });
  conn.setClient(deadlineBoundClient(client, dbName, driver.MongoOperationTimeoutError));
  instrumentMongo(conn);
  return conn;
}

/**
 * Opens the service's own database with the MongoDB driver alone, for services that use its
 * collections and no mongoose model (requests, leads): mongoose is not loaded there, about 4 MB
 * less resident per process on Node 24 (bench:memory). Same options as connectMongo.
 */
export async function connectMongoDriver(
  url: string,
  dbName: string,
  options: { timeoutMs?: number } = {},
): Promise<MongoConnection> {
  const driver = await import('mongodb');
  const client = new driver.MongoClient(url, driverOptions(options.timeoutMs));
  await client.connect();
  // Every collection taken from it runs under the request's deadline (mongo-deadline.ts).
  const db = deadlineBoundDb(client.db(dbName), driver.MongoOperationTimeoutError);
  const onClose: (() => void)[] = [];
  const conn: MongoConnection = {
    db,
    getClient: () => client,
    once(_event, listener) {
      onClose.push(listener);
      return conn;
    },
    async close() {
      await client.close();
      for (const listener of onClose.splice(0)) listener();
    },
  };
  instrumentMongo(conn);
  return conn;
}

/** The connection's database; a connection opened without one is a programming error. */
export function databaseOf(conn: MongoConnection): Db {
  if (!conn.db) throw new Error('mongo connection has no database');
  return conn.db;
}

/**
 * Creates collections that are written before any index build touches them (the outbox markers,
 * processed events), once at start: two first writes at the same moment could otherwise both try
 * to create the collection, and the embedded server fails one of them.
 */
export async function ensureCollections(conn: MongoConnection, names: string[]): Promise<void> {
  const db = databaseOf(conn);
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of names) {
    if (existing.has(name)) continue;
    try {
      await db.createCollection(name);
    } catch (err) {
      // Another replica created it first: MongoDB says NamespaceExists (48), the embedded server says "already existed".
      const e = err as { code?: number; message?: string };
      if (e.code !== 48 && !/already exist/i.test(e.message ?? '')) throw err;
    }
  }
}

/**
 * Readiness and closing; with `requestBudgetMs`, every request's MongoDB work together gets that
 * long from the request's arrival (mongo-deadline.ts; the kit's preHandler enters it, app.ts).
 * Not encapsulated: the budget is the app's own (`requestMongoBudgetMs`).
 */
export const mongoConnection = fp<{ conn: MongoConnection; requestBudgetMs?: number }>(
  async (app, { conn, requestBudgetMs }) => {
    app.requestMongoBudgetMs = requestBudgetMs;
    app.readiness.add('mongo', async () => {
      const db = conn.db;
      if (!db) throw new Error('not connected');
      await db.command({ ping: 1 });
    });
    app.addHook('onClose', async () => {
      await conn.close();
    });
  },
  { name: 'mongo-connection', fastify: '5.x' },
) as FastifyPluginAsync<{ conn: MongoConnection; requestBudgetMs?: number }>;
