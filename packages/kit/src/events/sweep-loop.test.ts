import type { Collection } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../logger.js';
import { SweepLoop, type SweepMarker, type SweepOutcome, backOffMarker } from './sweep-loop.js';

const messages = { sweepFailed: 'sweep failed', failing: 'failing', recovered: 'recovered' };

function fakeLogger() {
  const lines: { level: string; fields: unknown; msg: unknown }[] = [];
  const at =
    (level: string) =>
    (fields: unknown, msg?: unknown): void => {
      lines.push(typeof fields === 'string' ? { level, fields: {}, msg: fields } : { level, fields, msg });
    };
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { logger, lines };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Whether `stopping` has settled by the event loop's next turn. Not a timed wait: stop() waits on
 * promises only, so whatever it can finish without the gates still closed has finished once
 * every queued promise job has run, which is before a setImmediate callback.
 */
async function stoppedBeforeNextTurn(stopping: Promise<'stopped'>): Promise<boolean> {
  const nextTurn = new Promise<'pending'>((r) => setImmediate(() => r('pending')));
  return (await Promise.race([stopping, nextTurn])) === 'stopped';
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sweep loop', () => {
  it('a drain while a sweep runs joins it instead of starting a second one', async () => {
    const gate = deferred<SweepOutcome>();
    const sweep = vi.fn(() => gate.promise);
    const loop = new SweepLoop(sweep, fakeLogger().logger, messages);
    const first = loop.drain();
    const second = loop.drain();
    gate.resolve({ due: 2, failed: 0, published: 3 });
    expect(await first).toBe(3);
    expect(await second).toBe(3);
    expect(sweep).toHaveBeenCalledTimes(1);
    sweep.mockResolvedValueOnce({ due: 0, failed: 0, published: 0 });
    await loop.drain();
    expect(sweep).toHaveBeenCalledTimes(2);
  });

  it('sweeps every interval once started, and not after stop', async () => {
    vi.useFakeTimers();
    const sweep = vi.fn(async () => ({ due: 0, failed: 0, published: 0 }));
    const loop = new SweepLoop(sweep, fakeLogger().logger, messages, { sweepIntervalMs: 100 });
    expect(loop.running).toBe(false);
    loop.start();
    expect(loop.running).toBe(true);
    await vi.advanceTimersByTimeAsync(350);
    expect(sweep).toHaveBeenCalledTimes(3);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(3);
  });

  it('a sweep that throws is logged at debug and the loop keeps going', async () => {
    vi.useFakeTimers();
    const { logger, lines } = fakeLogger();
    const sweep = vi.fn(async (): Promise<SweepOutcome> => {
      throw new Error('database away');
    });
    const loop = new SweepLoop(sweep, logger, messages, { sweepIntervalMs: 100 });
    loop.start();
    await vi.advanceTimersByTimeAsync(250);
    await loop.stop();
    expect(sweep).toHaveBeenCalledTimes(2);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['debug', 'sweep failed'],
      ['debug', 'sweep failed'],
    ]);
  });

  it('stop waits for the running sweep and for tracked publishes', async () => {
    const sweepGate = deferred<SweepOutcome>();
    const publishGate = deferred<void>();
    const loop = new SweepLoop(() => sweepGate.promise, fakeLogger().logger, messages);
    loop.start();
    void loop.drain();
    loop.track(publishGate.promise);
    const stopping = loop.stop().then(() => 'stopped' as const);
    expect(loop.running).toBe(false);
    expect(await stoppedBeforeNextTurn(stopping)).toBe(false);
    sweepGate.resolve({ due: 0, failed: 0, published: 0 });
    expect(await stoppedBeforeNextTurn(stopping)).toBe(false);
    publishGate.resolve();
    expect(await stoppedBeforeNextTurn(stopping)).toBe(true);
  });

  it('warns once when whole sweeps fail, and says so once when one gets through', async () => {
    const { logger, lines } = fakeLogger();
    const outcomes: SweepOutcome[] = [
      { due: 2, failed: 2, published: 0 },
      { due: 1, failed: 1, published: 0 },
      { due: 0, failed: 0, published: 0 },
      { due: 3, failed: 1, published: 4 },
      { due: 1, failed: 0, published: 1 },
      { due: 1, failed: 1, published: 0 },
    ];
    const loop = new SweepLoop(async () => outcomes.shift() as SweepOutcome, logger, messages);
    for (let i = 0; i < 6; i++) await loop.drain();
    expect(lines.map((l) => [l.level, l.msg, l.fields])).toEqual([
      ['warn', 'failing', { failed: 2 }],
      ['info', 'recovered', {}],
      ['warn', 'failing', { failed: 1 }],
    ]);
  });
});

describe('marker back-off', () => {
  function fakeMarkers(fail = false) {
    const updates: { filter: unknown; update: { $set: { retryAt: Date; lastError: string }; $inc: unknown } }[] = [];
    const markers = {
      async updateOne(filter: unknown, update: (typeof updates)[number]['update']) {
        if (fail) throw new Error('database away');
        updates.push({ filter, update });
      },
    } as unknown as Collection<SweepMarker>;
    return { markers, updates };
  }
  const settings = { sweepIntervalMs: 1000, maxBackoffMs: 10_000, stuckAfterAttempts: 3 };
  const marker = (attempts: number): SweepMarker => ({ _id: 'm1', retryAt: new Date(0), attempts });

  it('doubles the wait per attempt up to the longest wait, and stores the error', async () => {
    const { markers, updates } = fakeMarkers();
    const waits: number[] = [];
    for (const attempts of [0, 1, 2, 3, 20]) {
      const before = Date.now();
      const result = await backOffMarker(markers, marker(attempts), new Error('no such topic'), settings);
      const update = updates.at(-1)?.update;
      waits.push(Math.round(((update?.$set.retryAt.getTime() ?? 0) - before) / 1000) * 1000);
      expect(result.attempts).toBe(attempts + 1);
      expect(result.error).toBe('no such topic');
      expect(update?.$set.lastError).toBe('no such topic');
      expect(update?.$inc).toEqual({ attempts: 1 });
    }
    expect(waits).toEqual([2000, 4000, 8000, 10_000, 10_000]);
    expect(updates[0]?.filter).toEqual({ _id: 'm1' });
  });

  it('is stuck at exactly the configured attempt', async () => {
    const { markers } = fakeMarkers();
    const stuck = [];
    for (const attempts of [0, 1, 2, 3, 4])
      stuck.push((await backOffMarker(markers, marker(attempts), 'x', settings)).stuck);
    expect(stuck).toEqual([false, false, true, false, false]);
  });

  it('keeps errors short and survives a database that is away', async () => {
    const { markers } = fakeMarkers(true);
    const result = await backOffMarker(markers, marker(0), new Error('e'.repeat(900)), settings);
    expect(result.error).toHaveLength(500);
  });
});
