import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { ConfigError } from './config.js';
import { connectMongo } from './connections/mongo.js';
import { connectRedis } from './connections/redis.js';

import { redactUrl } from './startup.js';

export { redactUrl } from './startup.js';

/**
 * Opens MongoDB and Redis for an operator command, runs `work`, and closes both. A server that
 * does not answer becomes a sentence naming the setting (never the credentials in it).
 */
export async function withCliConnections<T>(
  settings: { MONGO_URL: string; MONGO_DB: string; REDIS_URL: string },
  work: (mongo: Connection, redis: Redis) => Promise<T>,
): Promise<T> {
  let mongo: Connection | undefined;
  let redis: Redis | undefined;
  try {
    mongo = await connectMongo(settings.MONGO_URL, settings.MONGO_DB).catch((err: Error) => {
      throw new Error(`Could not reach MongoDB at MONGO_URL=${redactUrl(settings.MONGO_URL)}: ${err.message}`);
    });
    redis = await connectRedis(settings.REDIS_URL).catch((err: Error) => {
      throw new Error(`Could not reach Redis at REDIS_URL=${redactUrl(settings.REDIS_URL)}: ${err.message}`);
    });
    return await work(mongo, redis);
  } finally {
    redis?.disconnect();
    await mongo?.close();
  }
}

/**
 * Runs an operator command's main and exits with its code. Errors the operator can act on
 * (a bad setting, or the command's own input errors) print their message alone.
 */
export function runCli(
  name: string,
  main: (argv: string[]) => Promise<number>,
  isInputError: (err: unknown) => boolean = () => false,
): void {
  main(process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      if (err instanceof ConfigError || isInputError(err)) console.error((err as Error).message);
      else console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
