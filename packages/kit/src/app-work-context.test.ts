import { afterEach, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { createLogger } from './logger.js';
import { currentTrace } from './tracing/context.js';

// A handler runs in its request's work context (app.ts), so what it records names the request's
// trace; an app made with `workContext: false` (the gateway) enters none while traces are not exported.
const logger = createLogger({ name: 'work-context-test', level: 'silent', format: 'json' });
let app: ServiceApp;
afterEach(() => app?.close());

async function traceSeenByHandler(workContext?: boolean) {
  app = await createServiceApp({ name: 'test', logger, ...(workContext === undefined ? {} : { workContext }) });
  app.get('/trace', async () => {
    await new Promise((r) => setTimeout(r, 1));
    return { traceId: currentTrace()?.traceId ?? null };
  });
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const res = await app.inject({ url: '/trace', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  return { given: traceId, seen: res.json().traceId };
}

describe('the work context of a handler', () => {
  it('holds the request trace across awaits', async () => {
    const { given, seen } = await traceSeenByHandler();
    expect(seen).toBe(given);
  });

  it('is not entered in an app made without one', async () => {
    const { seen } = await traceSeenByHandler(false);
    expect(seen).toBeNull();
  });
});
