import type { SentEmail, SentEmails } from '../domain/ports.js';
import { type Models, sentEmailId } from './models.js';

const DUPLICATE_KEY = 11000;

export function sentEmailsRepository(models: Models): SentEmails {
  return {
    async record(sent: SentEmail) {
      try {
        await models.SentEmail.create(withId(sent));
      } catch (err) {
        // Recorded already: nothing to add.
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      }
    },
    async recordMany(sent: SentEmail[]) {
      if (sent.length === 0) return;
      try {
        // Unordered: a row recorded already (a retry after a failure between send and record)
        // does not stop the others. A row failing validation throws instead of being dropped.
        await models.SentEmail.insertMany(sent.map(withId), { ordered: false, throwOnValidationError: true });
      } catch (err) {
        if (!onlyDuplicateKeys(err)) throw err;
      }
    },
  };
}

const withId = (sent: SentEmail) => ({ _id: sentEmailId(sent.kind, sent.eventId), ...sent });

/** A bulk write whose every failure is a duplicate key: everything else was inserted. */
function onlyDuplicateKeys(err: unknown): boolean {
  const { writeErrors } = err as { writeErrors?: { code?: number; err?: { code?: number } }[] };
  if (!Array.isArray(writeErrors) || writeErrors.length === 0) return false;
  // Mongoose copies the driver's WriteError objects into plain ones, which keeps `err.code` but
  // not the `code` getter.
  return writeErrors.every((w) => (w.code ?? w.err?.code) === DUPLICATE_KEY);
}
