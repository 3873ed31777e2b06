import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '../test/capturing-logger.js';
import { type ServiceApp, createServiceApp } from './app.js';

// An operator reads a 5xx from its ERROR line alone: `<METHOD> <route> failed: <type>: <message>`,
// with the error in `err` and the route pattern (never the raw URL, which may hold ids).
let app: ServiceApp;
afterEach(() => app?.close());

describe("the error handler's line for a 500", () => {
  it('names the method, the route pattern, the error type and its message', async () => {
    const { lines, logger } = capturingLogger('error-line-test');
    app = await createServiceApp({ name: 'test', logger });
    app.get('/things/:id', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'price')");
    });
    const res = await app.inject({ url: '/things/abc-123?token=secret' });
    expect(res.statusCode).toBe(500);

    const errors = lines.filter((l) => (l.level as number) >= 50);
    expect(errors).toHaveLength(1);
    const line = errors[0];
    expect(line?.msg).toBe("GET /things/:id failed: TypeError: Cannot read properties of undefined (reading 'price')");
    expect(line?.operation).toBe('GET /things/:id');
    expect(line?.err).toMatchObject({
      type: 'TypeError',
      message: "Cannot read properties of undefined (reading 'price')",
    });
    expect(line?.reqId).toBe(res.headers['x-request-id']);
    expect(JSON.stringify(line)).not.toContain('abc-123');
  });

  it('names an error of a custom type by its name', async () => {
    const { lines, logger } = capturingLogger('error-line-test');
    app = await createServiceApp({ name: 'test', logger });
    class LedgerError extends Error {
      override name = 'LedgerError';
    }
    app.post('/ledger', async () => {
      throw new LedgerError('balance went negative');
    });
    await app.inject({ method: 'POST', url: '/ledger' });
    expect(lines.filter((l) => (l.level as number) >= 50).map((l) => l.msg)).toEqual([
      'POST /ledger failed: LedgerError: balance went negative',
    ]);
  });

  it('writes no ERROR line for a 4xx or an outage of a dependency (a warning names that)', async () => {
    const { lines, logger } = capturingLogger('error-line-test');
    app = await createServiceApp({ name: 'test', logger });
    app.get('/gone', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { code: 'ECONNREFUSED' });
    });
    app.get('/missing', async () => {
      throw Object.assign(new Error('nope'), { statusCode: 404 });
    });
    expect((await app.inject({ url: '/gone' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/missing' })).statusCode).toBe(404);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
