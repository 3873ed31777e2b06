import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { byOffset, readEnvelopes } from './batches.js';
import { createEvent } from './envelope.js';
import { MAX_EVENTS_PER_CALL, batchHandler, effectsInMemory, isBatching, messagesPerCall } from './handlers.js';

const log = {} as Logger;

const messageOf = (value: string | null, offset: string) =>
  ({ key: null, value: value === null ? null : Buffer.from(value), offset }) as unknown as KafkaMessage;

describe('batching handlers', () => {
  it('take a share of a fetched batch per call; an ordinary handler takes one message', () => {
    const plain = async () => undefined;
    const together = batchHandler(async () => undefined);
    expect(isBatching(plain)).toBe(false);
    expect(isBatching(together)).toBe(true);
    expect(isBatching(undefined)).toBe(false);
    expect(messagesPerCall(plain)).toBe(1);
    expect(messagesPerCall(together)).toBe(MAX_EVENTS_PER_CALL);
  });

  it('called with one event, pass it to the batch function alone, with its effects', async () => {
    const calls: string[][] = [];
    const effects = effectsInMemory();
    const handler = batchHandler(async (events, _log, given) => {
      calls.push(events.map((e) => e.id));
      expect(given).toBe(effects);
    });
    const event = createEvent('t', { a: 1 }, { source: 'test', key: 'k' });
    await handler(event, log, effects);
    expect(calls).toEqual([[event.id]]);
  });

  it('in memory, remember each effect per event', async () => {
    const effects = effectsInMemory();
    await effects.record('email', ['e1', 'e2']);
    expect([effects.done('email', 'e1'), effects.done('email', 'e3'), effects.done('receipt', 'e1')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe("a call's messages", () => {
  it('are split into readable events and the rest, each kept with its message', () => {
    const { key, ...envelope } = createEvent('t', { a: 1 }, { source: 'test', key: 'k' });
    const good = messageOf(JSON.stringify(envelope), '3');
    const broken = messageOf('{"not an envelope', '4');
    const empty = messageOf(null, '5');
    const { readable, unreadable } = readEnvelopes([good, broken, empty]);
    expect(readable.map((r) => [r.message, r.event.id])).toEqual([[good, envelope.id]]);
    expect(unreadable).toEqual([broken, empty]);
  });

  it('left over are put back in offset order, numerically and beyond 2^53', () => {
    const offsets = ['10', '9', '9007199254740993', '9007199254740992', '100'];
    expect(byOffset(offsets.map((o) => messageOf('', o))).map((m) => m.offset)).toEqual([
      '9',
      '10',
      '100',
      '9007199254740992',
      '9007199254740993',
    ]);
  });
});
