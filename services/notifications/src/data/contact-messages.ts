import type { OutboxEntry, OutboxRecorder } from '@homereport/kit';
import type { ContactMessages, StoredContactMessage } from '../domain/ports.js';
import type { Models } from './models.js';

export function contactMessagesRepository(models: Models, outbox: OutboxRecorder): ContactMessages {
  return {
    async insertWithEvents(message: StoredContactMessage, events: OutboxEntry[]) {
      const { id, ...fields } = message;
      // One insert carries the message and its events: either both are stored or neither.
      await outbox.record('contact_messages', id, () =>
        models.ContactMessage.create({ _id: id, ...fields, outbox: events }),
      );
    },
  };
}
