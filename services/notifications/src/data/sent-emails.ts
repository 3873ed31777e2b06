import type { EmailKind, SentEmail, SentEmails } from '../domain/ports.js';
import { type Models, sentEmailId } from './models.js';

const DUPLICATE_KEY = 11000;

export function sentEmailsRepository(models: Models): SentEmails {
  const wasSent = async (eventId: string, kind: EmailKind) =>
    (await models.SentEmail.exists({ eventId, kind })) !== null;
  return {
    wasSent,
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
    async sentAmong(eventIds: string[], kind: EmailKind) {
      if (eventIds.length === 0) return new Set<string>();
      if (eventIds.length === 1) {
        const [eventId] = eventIds as [string];
        return new Set((await wasSent(eventId, kind)) ? [eventId] : []);
      }
      const rows = await models.SentEmail.find(
        { _id: { $in: eventIds.map((id) => sentEmailId(kind, id)) } },
        { eventId: 1 },
      ).lean();
      return new Set(rows.map((row) => row.eventId));
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
