import { Writable } from 'node:stream';
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../logger.js';
import { continueTrace, currentTrace, runInTrace } from '../tracing/context.js';
import type { OutboxEntry } from './envelope.js';
import { EventPublisher } from './publisher.js';

describe('the event producer', () => {
  it('connects outside the request whose send opened it: its line and its connection carry no trace', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino(loggerOptions({ name: 'unit', level: 'info', format: 'json' }), sink);
    const traceSeen: { connect?: unknown; send?: unknown } = {};
    const kafka = {
      producer: () => ({
        connect: async () => {
          await new Promise((r) => setTimeout(r, 1));
          traceSeen.connect = currentTrace() ?? null;
        },
        sendBatch: async () => {
          traceSeen.send = currentTrace();
          return [];
        },
        disconnect: async () => undefined,
      }),
    } as unknown as Kafka;
    const publisher = new EventPublisher(kafka, logger);
    const trace = continueTrace(undefined);
    const event = { id: 'e1', type: 't', key: 'k', correlationId: 'r1', data: {} } as unknown as OutboxEntry;
    await runInTrace(trace, () => publisher.publish([event]));

    expect(traceSeen.connect).toBeNull();
    // The send itself stays in the request's trace.
    expect(traceSeen.send).toBe(trace);
    const connected = lines.find((l) => l.msg === 'event producer connected');
    expect(connected).toBeDefined();
    expect(connected).not.toHaveProperty('traceId');
  });
});
