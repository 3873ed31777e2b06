import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { Control, DeadLetters, backoffMs, deadLetterTopic, errorText, withRetries } from './retry.js';

function fakeLogger() {
  const lines: { level: string; msg: unknown }[] = [];
  const at = (level: string) => (_fields: unknown, msg?: unknown) => void lines.push({ level, msg });
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger,
    lines,
  };
}

/** Pauses that return at once and count what was asked; `letGoAfter` pauses succeed, then the consumer lets go. */
function fakeControl(letGoAfter = Number.POSITIVE_INFINITY) {
  const pauses: number[] = [];
  return {
    pauses,
    ctl: {
      pause: async (ms: number) => {
        pauses.push(ms);
        return pauses.length <= letGoAfter;
      },
    },
  };
}

const message = { key: Buffer.from('k'), value: Buffer.from('{"broken'), offset: '7' } as KafkaMessage;

describe('backoff', () => {
  it('doubles from the base and stops at the longest wait', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 500))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(10, 500, 30_000)).toBe(30_000);
  });
});

describe('a handler with retries', () => {
  it('is handled once an attempt succeeds, after waits that double', async () => {
    const { ctl, pauses } = fakeControl();
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
      },
      { maxAttempts: 5, retryBaseMs: 100 },
      ctl,
      fakeLogger().logger,
    );
    expect(result).toEqual({ outcome: 'handled' });
    expect(calls).toBe(3);
    expect(pauses).toEqual([100, 200]);
  });

  it('fails with the last error after every attempt, without waiting after the last', async () => {
    const { ctl, pauses } = fakeControl();
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        throw new Error(`attempt ${calls}`);
      },
      { maxAttempts: 3, retryBaseMs: 10 },
      ctl,
      fakeLogger().logger,
    );
    expect(result).toMatchObject({ outcome: 'failed', attempts: 3 });
    expect(errorText((result as { error: unknown }).error)).toBe('attempt 3');
    expect(pauses).toHaveLength(2);
  });

  it('is abandoned when the consumer lets go during a wait, and not tried again', async () => {
    const { ctl } = fakeControl(0);
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        throw new Error('no');
      },
      { maxAttempts: 5, retryBaseMs: 10 },
      ctl,
      fakeLogger().logger,
    );
    expect(result).toEqual({ outcome: 'abandoned' });
    expect(calls).toBe(1);
  });
});

describe('dead letters', () => {
  it('carry the message, the original topic and the error, cut to 1000 characters', async () => {
    const sent: { topic: string; messages: unknown[] }[] = [];
    const letters = new DeadLetters(
      'g1',
      { sendRaw: async (topic, messages) => void sent.push({ topic, messages }) },
      50,
    );
    const outcome = await letters.send('t1', message, 'x'.repeat(1200), fakeLogger().logger, fakeControl().ctl);
    expect(outcome).toBe('dead-lettered');
    expect(sent).toEqual([
      {
        topic: deadLetterTopic('g1'),
        messages: [
          { key: message.key, value: message.value, headers: { 'original-topic': 't1', error: 'x'.repeat(1000) } },
        ],
      },
    ]);
  });

  it('are retried while the topic is unreachable, then said to have arrived', async () => {
    let sends = 0;
    const letters = new DeadLetters(
      'g1',
      {
        sendRaw: async () => {
          sends += 1;
          if (sends < 3) throw new Error('broker away');
        },
      },
      50,
    );
    const { logger, lines } = fakeLogger();
    const { ctl, pauses } = fakeControl();
    expect(await letters.send('t1', message, 'e', logger, ctl)).toBe('dead-lettered');
    expect(pauses).toEqual([50, 100]);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  it('give up the message (abandoned) when the consumer lets go while the topic is away', async () => {
    const letters = new DeadLetters(
      'g1',
      {
        sendRaw: async () => {
          throw new Error('broker away');
        },
      },
      50,
    );
    expect(await letters.send('t1', message, 'e', fakeLogger().logger, fakeControl(1).ctl)).toBe('abandoned');
  });
});

describe('the consumer control', () => {
  it('heartbeats while it pauses and returns true once the time is up', async () => {
    let beats = 0;
    const slept: number[] = [];
    const ctl = new Control(
      async () => {
        beats += 1;
      },
      () => true,
      async (ms) => void slept.push(ms),
    );
    // The fake sleep returns at once: the pause ends on the clock, heartbeating every step.
    expect(await ctl.pause(0)).toBe(true);
    expect(beats).toBe(1);
    expect(slept).toEqual([]);
  });

  it('returns false as soon as the consumer is no longer active', async () => {
    let active = true;
    let beats = 0;
    const ctl = new Control(
      async () => {
        beats += 1;
      },
      () => active,
      async () => {
        active = false;
      },
    );
    expect(await ctl.pause(60_000)).toBe(false);
    expect(beats).toBe(1);
  });
});

describe('a handler failing because a dependency is away', () => {
  it('keeps waiting for it, past the attempts a failing event gets, and is handled once it is back', async () => {
    const { ctl, pauses } = fakeControl();
    let calls = 0;
    const timedOut = Object.assign(new Error('Timed out during socket read (1500ms)'), {
      name: 'MongoOperationTimeoutError',
    });
    const result = await withRetries(
      async () => {
        calls += 1;
        if (calls < 9) throw timedOut;
      },
      { maxAttempts: 5, retryBaseMs: 500 },
      ctl,
      fakeLogger().logger,
    );
    expect(result).toEqual({ outcome: 'handled' });
    expect(calls).toBe(9);
    // Doubling, but never more than 5 s apart.
    expect(pauses).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 5000]);
  });
});
