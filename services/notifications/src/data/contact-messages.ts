import type { OutboxEntry } from '@homereport/kit';
import type { ContactMessages, StoredContactMessage } from '../domain/ports.js';
import type { Models } from './models.js';

export function contactMessagesRepository(models: Models): ContactMessages {
  return {
    async insertWithEvents(message: StoredContactMessage, events: OutboxEntry[]) {
      const { id, ...fields } = message;
      // One insert carries the message and its events: either both are stored or neither.
      await models.ContactMessage.create({ _id: id, ...fields, outbox: events });
    },
  };
}
