// npm run create-admin -- <email> <password>
// Creates a verified admin, or promotes (and verifies) an existing user. Idempotent.
import { SessionStore, markingRecorder, runCli, withCliConnections } from '@homereport/kit';
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

  return withCliConnections(loadCreateAdminConfig(), async (mongo, redis) => {
    // No relay here: the write is marked, and the running auth service's relay publishes its events.
    const db = mongo.db;
    if (!db) throw new Error('MongoDB connection has no database');
    const users = new UsersRepository(userModel(mongo), markingRecorder(db));
    await users.ensureIndexes();
    const outcome = await ensureAdmin(users, new SessionStore(redis), email, password);
    console.log(describeOutcome(outcome));
    return 0;
  });
}

runCli('create-admin', main, (err) => err instanceof AdminInputError);
