// npm run create-admin -- <email>   (the password is asked for, or read from standard input)
// Creates a verified admin, or promotes (and verifies) an existing user. Idempotent.
import { stdin } from 'node:process';
import { SessionStore, databaseOf, markingRecorder, requireIndexes, runCli, withCliConnections } from '@homereport/kit';
import { loadCreateAdminConfig } from '../config.js';
import { INDEXES, userModel } from '../data/user-model.js';
import { UsersRepository } from '../data/users-repository.js';
import { AdminInputError, adminInputProblem, describeOutcome, ensureAdmin } from '../domain/admin-bootstrap.js';
import { readPassword } from './read-password.js';

const USAGE =
  'Usage: npm run create-admin -- <email>\n' +
  'The password is asked for on a terminal, or read from the first line of standard input.';

async function main(argv: string[]): Promise<number> {
  const [email, ...rest] = argv;
  if (email === undefined || rest.length > 0) {
    // A password given as an argument is already in the shell history: say so rather than use it.
    const why =
      rest.length > 0
        ? 'The password is not taken on the command line (it would show in ps and shell history).'
        : 'Expected one argument, an email.';
    console.error(`${why}\n${USAGE}`);
    return 2;
  }
  const password = await readPassword(`Password for ${email}: `);
  if (stdin.isTTY && password !== (await readPassword('Same password again: '))) {
    console.error('The two passwords differ; nothing changed.');
    return 2;
  }
  const problem = adminInputProblem(email, password);
  if (problem) {
    console.error(`${problem}\n${USAGE}`);
    return 2;
  }

  return withCliConnections(loadCreateAdminConfig(), async (mongo, redis) => {
    // No relay here: the write is marked, and the running auth service's relay publishes its events.
    const db = databaseOf(mongo);
    const users = new UsersRepository(userModel(mongo), markingRecorder(db));
    // The unique email index keeps two admins from sharing an address: the migrations build it.
    await requireIndexes(db, INDEXES);
    const outcome = await ensureAdmin(users, new SessionStore(redis), email, password);
    console.log(describeOutcome(outcome));
    return 0;
  });
}

runCli('create-admin', main, (err) => err instanceof AdminInputError);
