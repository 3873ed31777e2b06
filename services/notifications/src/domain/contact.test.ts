import type { OutboxEntry } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { checkContactField, normalizeContact, submitContactMessage } from './contact.js';
import type { ContactMessages, RateLimiter, StoredContactMessage } from './ports.js';

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

const allow: RateLimiter = { hit: async () => ({ allowed: true }) };

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
    const { messageId } = await submitContactMessage(
      { messages, limiter: allow, limitPerHour: 5, limitPerAddressPerHour: 3 },
      valid,
      {
        clientAddress: '203.0.113.7',
        requestId: 'req-1',
      },
    );
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

  it('over the limit, refuses with 429 and the wait, and stores nothing', async () => {
    const { stored, messages } = recorder();
    const keys: string[] = [];
    const limiter: RateLimiter = {
      hit: async (key) => {
        keys.push(key);
        return { allowed: false, retryAfterSeconds: 1234 };
      },
    };
    const attempt = submitContactMessage({ messages, limiter, limitPerHour: 5, limitPerAddressPerHour: 3 }, valid, {
      clientAddress: '203.0.113.7',
      requestId: 'r',
    });
    await expect(attempt).rejects.toMatchObject({ statusCode: 429, extra: { retryAfterSeconds: 1234 } });
    expect(keys).toEqual(['203.0.113.7']);
    expect(stored).toHaveLength(0);
  });

  it('counts the sender email address as well, by a digest, and refuses when it is over', async () => {
    const { stored, messages } = recorder();
    const keys: string[] = [];
    const limiter: RateLimiter = {
      hit: async (key, limit) => {
        keys.push(`${key}/${limit}`);
        return key.startsWith('address:') ? { allowed: false, retryAfterSeconds: 60 } : { allowed: true };
      },
    };
    const attempt = submitContactMessage({ messages, limiter, limitPerHour: 5, limitPerAddressPerHour: 3 }, valid, {
      clientAddress: '203.0.113.7',
      requestId: 'r',
    });
    await expect(attempt).rejects.toMatchObject({ statusCode: 429 });
    expect(keys[0]).toBe('203.0.113.7/5');
    expect(keys[1]).toMatch(/^address:[0-9a-f]{32}\/3$/);
    expect(keys.join()).not.toContain('ann@example.test');
    expect(stored).toHaveLength(0);
  });

  it('with the limits at 0, never asks the limiter', async () => {
    const { stored, messages } = recorder();
    const limiter: RateLimiter = {
      hit: async () => {
        throw new Error('should not be called');
      },
    };
    await submitContactMessage({ messages, limiter, limitPerHour: 0, limitPerAddressPerHour: 0 }, valid, {
      clientAddress: 'x',
      requestId: 'r',
    });
    expect(stored).toHaveLength(1);
  });
});
