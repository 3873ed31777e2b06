import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';
import { testEnv } from '../../../test/support/env.js';
import { CONTACT_RATE_KEY_PREFIX } from '../src/data/rate-limit.js';

/** The stack's notifications service runs with its defaults unless the environment says otherwise. */
export const STAFF_EMAIL = process.env.STAFF_EMAIL ?? 'staff@homereport.local';
export const CONTACT_LIMIT = Number(process.env.CONTACT_RATE_LIMIT_PER_HOUR ?? 5);
const MONGO_DB = process.env.MONGO_DB ?? 'homereport_notifications';

/**
 * Every test reaches the gateway from 127.0.0.1, so all of them share one contact allowance.
 * Tests that send contact messages start from a fresh allowance and leave one behind.
 */
export async function clearContactRateLimits(): Promise<void> {
  const redis = new Redis(testEnv().redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${CONTACT_RATE_KEY_PREFIX}*`, 'COUNT', 100);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/** The service's own database, read only, to check what it stored. */
export async function openNotificationsDb(): Promise<Connection> {
  return mongoose
    .createConnection(testEnv().mongoUrl, { dbName: MONGO_DB, serverSelectionTimeoutMS: 5000 })
    .asPromise();
}
