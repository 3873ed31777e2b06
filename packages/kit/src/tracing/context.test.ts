import { describe, expect, it } from 'vitest';
import { continueTrace, currentTrace, runInTrace, traceparentOf } from './context.js';

describe('trace context', () => {
  it("continues a caller's trace with a span of its own", () => {
    const given = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const context = continueTrace(given);
    expect(context.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(context.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(context.spanId).not.toBe('00f067aa0ba902b7');
    expect(traceparentOf(context)).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${context.spanId}-01`);
  });

  it('starts a new trace for a missing or malformed traceparent', () => {
    for (const bad of [undefined, '', 'garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, ['a', 'b']]) {
      const context = continueTrace(bad);
      expect(context.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(context.traceId).not.toBe('0'.repeat(32));
    }
    expect(continueTrace(undefined).traceId).not.toBe(continueTrace(undefined).traceId);
  });

  it('is the current trace inside runInTrace, across awaits, and none outside', async () => {
    const context = continueTrace(undefined);
    await runInTrace(context, async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentTrace()).toBe(context);
    });
    expect(currentTrace()).toBeUndefined();
  });

  it('makes well-formed ids that do not repeat, from a prefix and a counter', () => {
    const contexts = Array.from({ length: 1000 }, () => continueTrace(undefined));
    for (const { traceId, spanId } of contexts) {
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(spanId).not.toBe('0'.repeat(16));
    }
    expect(new Set(contexts.map((c) => c.traceId)).size).toBe(1000);
    expect(new Set(contexts.map((c) => c.spanId)).size).toBe(1000);
  });
});
