import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaLogSink } from './kafka.js';

function recorder() {
  const lines: { level: string; message: string; obj?: unknown }[] = [];
  const at = (level: string) => (obj: unknown, message: string) =>
    lines.push({ level, message, ...(level === 'error' ? { obj } : {}) });
  const log = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { lines, log: log as never };
}

const entry = (level: number, message: string, extra: Record<string, unknown> = {}) => ({
  namespace: 'Connection',
  level,
  label: 'ERROR',
  log: { timestamp: '', logger: 'kafkajs', message, ...extra },
});

describe('kafka log sink', () => {
  it('sends a retriable broker error to debug while it is brief', () => {
    const { lines, log } = recorder();
    const sink = kafkaLogSink(log, () => 0);
    sink(entry(logLevel.ERROR, 'Response FindCoordinator', { error: 'The group coordinator is not available' }));
    sink(entry(logLevel.ERROR, '[Runner] The group is rebalancing, re-joining'));
    sink(entry(logLevel.ERROR, 'Failed to connect to seed broker', { retryCount: 1, retryTime: 300 }));
    expect(lines.map((l) => l.level)).toEqual(['debug', 'debug', 'debug']);
  });

  it('knows the retriable broker errors by the message kafkajs logs for them', () => {
    const { lines, log } = recorder();
    const sink = kafkaLogSink(log, () => 0);
    for (const error of [
      'This server does not host this topic-partition',
      'The request timed out',
      'The server disconnected before a response was received',
      'Messages are rejected since there are fewer in-sync replicas than required',
      'The fetch session ID was not found',
    ]) {
      sink(entry(logLevel.ERROR, 'Response Produce(key: 0, version: 7)', { error }));
    }
    sink(entry(logLevel.ERROR, 'Response Produce(key: 0, version: 7)', { error: 'Topic authorization failed' }));
    expect(lines.map((l) => l.level)).toEqual(['debug', 'debug', 'debug', 'debug', 'debug', 'error']);
  });

  it('warns once when the same retriable error goes on for a minute', () => {
    const { lines, log } = recorder();
    let now = 0;
    const sink = kafkaLogSink(log, () => now);
    for (; now <= 120_000; now += 5_000) sink(entry(logLevel.ERROR, 'Connection error: connect ECONNREFUSED'));
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(0);
  });

  it('keeps a non-retriable error at error level, naming the error and the kafkajs component', () => {
    const { lines, log } = recorder();
    kafkaLogSink(log)(
      entry(logLevel.ERROR, 'Crash: KafkaJSNonRetriableError', { error: 'Topic authorization failed' }),
    );
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'kafkajs Connection: Crash: KafkaJSNonRetriableError: KafkaJSError: Topic authorization failed',
        obj: expect.objectContaining({
          operation: 'kafkajs Connection',
          err: { type: 'KafkaJSError', message: 'Topic authorization failed' },
        }),
      },
    ]);
  });

  it('names the error a handler threw, whether kafkajs gives it as an Error or only its stack', () => {
    const { lines, log } = recorder();
    const sink = kafkaLogSink(log);
    const thrown = Object.assign(new Error('mongo is down (circuit open)'), { name: 'CircuitOpenError' });
    sink(entry(logLevel.ERROR, 'Error when calling eachBatch', { topic: 't', partition: 2, error: thrown }));
    sink(
      entry(logLevel.ERROR, 'Caught error when stopping the consumer: Closed', {
        stack: 'KafkaJSError: Closed\n at x',
      }),
    );
    expect(lines.map((l) => l.message)).toEqual([
      'kafkajs Connection: Error when calling eachBatch: CircuitOpenError: mongo is down (circuit open)',
      'kafkajs Connection: Caught error when stopping the consumer: Closed',
    ]);
    expect(lines[0]?.obj).toMatchObject({ topic: 't', partition: 2, err: { type: 'CircuitOpenError' } });
    expect(lines[1]?.obj).toMatchObject({ err: { type: 'KafkaJSError', message: 'Closed' } });
  });
});
