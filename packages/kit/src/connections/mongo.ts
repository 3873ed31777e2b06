import mongoose, { type Connection } from 'mongoose';
import type { ServiceApp } from '../app.js';

/**
 * Opens the service's own database. Our local MongoDB-protocol server (mongo-java-server) has no
 * multi-document transactions, so nothing here offers sessions; see events/outbox.ts.
 */
export async function connectMongo(url: string, dbName: string): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 5000,
    // Index builds happen explicitly at start (syncIndexes) so a missing unique index is loud.
    autoIndex: false,
  });
  await conn.asPromise();
  return conn;
}

export function registerMongo(app: ServiceApp, conn: Connection): void {
  app.readiness.add('mongo', async () => {
    const db = conn.db;
    if (!db) throw new Error('not connected');
    await db.command({ ping: 1 });
  });
  app.addHook('onClose', async () => {
    await conn.close();
  });
}
