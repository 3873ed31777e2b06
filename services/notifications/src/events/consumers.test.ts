import { EventCatalogue, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { URGENT_TOPICS, lanes } from './consumers.js';

describe('the consumer lanes', () => {
  const consumed = Object.entries(EventCatalogue)
    .filter(([, use]) => (use.consumers as readonly string[]).includes('notifications'))
    .map(([topic]) => topic);
  const handlers = Object.fromEntries(consumed.map((topic) => [topic, (async () => {}) as EventHandler]));

  it('put each topic notifications consumes in exactly one lane', () => {
    const { urgent, bulk } = lanes(handlers);
    expect([...Object.keys(urgent), ...Object.keys(bulk)].sort()).toEqual([...consumed].sort());
    for (const topic of Object.keys(urgent)) expect(bulk[topic]).toBeUndefined();
  });

  it('keep the emails a person waits for apart from bursts of receipts, alerts and erasures', () => {
    const { urgent, bulk } = lanes(handlers);
    expect(Object.keys(urgent).sort()).toEqual(
      [
        Topics.userRegistered,
        Topics.verificationResendRequested,
        Topics.passwordResetRequested,
        Topics.contactMessageReceived,
      ].sort(),
    );
    for (const topic of [Topics.requestSubmitted, Topics.requestCovered, Topics.leadReceived, Topics.accountDeleted])
      expect(Object.keys(bulk)).toContain(topic);
    // Every urgent topic is one notifications consumes.
    for (const topic of URGENT_TOPICS) expect(consumed).toContain(topic);
  });
});
