import type { OutboxEntry } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { checkContactField, normalizeContact, submitContactMessage } from './contact.js';
import type { ContactMessages, StoredContactMessage } from './ports.js';

const valid = { name: ' Ann ', email: 'ann@example.test', subject: ' Hi ', message: ' Question \n' };

function recorder() {
  const stored: { message: StoredContactMessage; events: OutboxEntry[] }[] = [];
  const messages: ContactMessages = {
    async insertWithEvents(message, events) {
      stored.push({ message, events });
    },
  };
  return { stored, messages };
}

describe('contact messages', () => {
  it('a blank field is refused with a message naming it', () => {
    for (const field of ['name', 'email', 'subject', 'message'] as const) {
      expect(() => normalizeContact({ ...valid, [field]: ' \t\n ' })).toThrow(`${field}: must not be blank`);
    }
  });

  it('a field that is not a string is refused rather than converted', () => {
    expect(() => checkContactField('name', 42)).toThrow('name: must be string');
    expect(checkContactField('name', '  Ann ')).toBe('Ann');
  });

  it('stores the trimmed message with its contact-message-received event in the same write', async () => {
    const { stored, messages } = recorder();
    const { messageId } = await submitContactMessage({ messages }, valid, { requestId: 'req-1' });
    expect(stored).toHaveLength(1);
    const [{ message, events }] = stored as [{ message: StoredContactMessage; events: OutboxEntry[] }];
    expect(message).toMatchObject({
      id: messageId,
      name: 'Ann',
      subject: 'Hi',
      message: 'Question',
      requestId: 'req-1',
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'contact-message-received',
      source: 'notifications',
      key: messageId,
      correlationId: 'req-1',
      data: { messageId, name: 'Ann', email: 'ann@example.test', subject: 'Hi', message: 'Question' },
    });
  });
});
