// npm run create-admin -- <email> <password>
// Creates a verified admin, or promotes (and verifies) an existing user. Idempotent.
import { ConfigError, type Redis, SessionStore, connectMongo, connectRedis, markingRecorder } from '@homereport/kit';
import type { Connection } from 'mongoose';
import { loadCreateAdminConfig } from '../config.js';
import { userModel } from '../data/user-model.js';
import { UsersRepository } from '../data/users-repository.js';
import { AdminInputError, adminInputProblem, describeOutcome, ensureAdmin } from '../domain/admin-bootstrap.js';

const USAGE = 'Usage: npm run create-admin -- <email> <password>';

async function main(argv: string[]): Promise<number> {
  const [email, password, ...rest] = argv;
  if (email === undefined || password === undefined || rest.length > 0) {
    console.error(`Expected exactly two arguments, an email and a password.\n${USAGE}`);
    return 2;
  }
  const problem = adminInputProblem(email, password);
  if (problem) {
    console.error(`${problem}\n${USAGE}`);
    return 2;
  }

  const config = loadCreateAdminConfig();
  let mongo: Connection | undefined;
  let redis: Redis | undefined;
  try {
    mongo = await connectMongo(config.MONGO_URL, config.MONGO_DB).catch((err: Error) => {
      throw new Error(`Could not reach MongoDB at MONGO_URL=${redact(config.MONGO_URL)}: ${err.message}`);
    });
    redis = await connectRedis(config.REDIS_URL).catch((err: Error) => {
      throw new Error(`Could not reach Redis at REDIS_URL=${redact(config.REDIS_URL)}: ${err.message}`);
    });
    // No relay here: the write is marked, and the running auth service's relay publishes its events.
    const db = mongo.db;
    if (!db) throw new Error('MongoDB connection has no database');
    const users = new UsersRepository(userModel(mongo), markingRecorder(db));
    await users.ensureIndexes();
    const outcome = await ensureAdmin(users, new SessionStore(redis), email, password);
    console.log(describeOutcome(outcome));
    return 0;
  } finally {
    redis?.disconnect();
    await mongo?.close();
  }
}

/** Connection strings may hold credentials; show only where they point. */
function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof AdminInputError || err instanceof ConfigError) console.error(err.message);
    else console.error(`create-admin failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
