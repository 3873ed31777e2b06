import { duplicatesOfBulkWrite, isDuplicateKey } from '@homereport/kit';
import type { SentEmail, SentEmails } from '../domain/ports.js';
import { type Models, sentEmailId } from './models.js';

export function sentEmailsRepository(models: Models): SentEmails {
  return {
    async record(sent: SentEmail) {
      try {
        await models.SentEmail.create(withId(sent));
      } catch (err) {
        // Recorded already: nothing to add.
        if (!isDuplicateKey(err)) throw err;
      }
    },
    async recordMany(sent: SentEmail[]) {
      if (sent.length === 0) return;
      try {
        // Unordered: a row recorded already (a retry after a failure between send and record)
        // does not stop the others. A row failing validation throws instead of being dropped.
        await models.SentEmail.insertMany(sent.map(withId), { ordered: false, throwOnValidationError: true });
      } catch (err) {
        if (!duplicatesOfBulkWrite(err)) throw err;
      }
    },
  };
}

const withId = (sent: SentEmail) => ({ _id: sentEmailId(sent.kind, sent.eventId), ...sent });
