import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { createKafka, createLogger, ensureTopics } from '../src/index.js';

const env = testEnv();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ensureTopics', () => {
  it('creates every missing topic without kafkajs sorting a reply with localeCompare', async () => {
    const kafka = createKafka(
      env.kafkaBrokers.split(','),
      'kit-topics-test',
      createLogger({ name: 'kit-topics-test', level: 'silent', format: 'json' }),
    );
    const run = randomUUID().slice(0, 8);
    const topics = ['a', 'b', 'c'].map((t) => `kit-topics-${run}-${t}`);
    // The first localeCompare of a process loads ICU's collation data (about 3 MB resident for
    // good); kafkajs calls it on a createTopics reply of two topics or more.
    const compared = vi.spyOn(String.prototype, 'localeCompare');
    await ensureTopics(kafka, [topics[0] as string], 1);
    await ensureTopics(kafka, topics, 1); // one exists already: left as it is
    expect(compared).not.toHaveBeenCalled();

    const admin = kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      expect(topics.filter((t) => !existing.has(t))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });
});
