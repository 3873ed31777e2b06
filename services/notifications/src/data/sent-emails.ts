import type { EmailKind, SentEmail, SentEmails } from '../domain/ports.js';
import type { Models } from './models.js';

export function sentEmailsRepository(models: Models): SentEmails {
  return {
    async wasSent(eventId: string, kind: EmailKind) {
      return (await models.SentEmail.exists({ eventId, kind })) !== null;
    },
    async record(sent: SentEmail) {
      try {
        await models.SentEmail.create(sent);
      } catch (err) {
        // Recorded already: nothing to add.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
  };
}
