import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { createLogger } from './logger.js';

const logger = createLogger({ name: 'app-validation-test', level: 'silent', format: 'json' });
let app: ServiceApp;
afterEach(() => app?.close());

describe('validation', () => {
  it('takes a query string’s whole number as a number, and says its range when it is out of it', async () => {
    app = await createServiceApp({ name: 'test', logger });
    const Limit = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
    app.get('/api/list', { schema: { querystring: Limit } }, async (req) => ({ limit: req.query.limit ?? null }));
    await app.ready();

    expect((await app.inject({ url: '/api/list?limit=42' })).json()).toEqual({ limit: 42 });
    for (const limit of ['0', '101', 'ten', '1.5', '']) {
      const res = await app.inject({ url: `/api/list?limit=${limit}` });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error, limit).toBe('limit: must be a whole number from 1 to 100');
    }
  });
});

describe('validation of bodies and query texts', () => {
  it('says a body figure’s range, its steps, and a query text’s shape, in words from the schema', async () => {
    app = await createServiceApp({ name: 'test', logger });
    const Figures = Type.Object(
      {
        rent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
        baths: Type.Optional(Type.Number({ minimum: 0, maximum: 50, multipleOf: 0.5 })),
        year: Type.Optional(Type.Integer({ minimum: 1700 })),
      },
      { additionalProperties: false },
    );
    const Zip = Type.Object({ zip: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', description: 'five digits' })) });
    app.put('/api/figures', { schema: { body: Figures, querystring: Zip } }, async () => ({ ok: true }));
    // Over a real connection: an injected request never says its body was read to the end.
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const put = async (body: object, query = '') => {
      const res = await fetch(`${base}/api/figures${query}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { error: string };
      return { statusCode: res.status, json: () => json };
    };
    expect((await put({ rent: 0 })).json().error).toBe('rent: must be a whole number from 1 to 100,000,000');
    expect((await put({ rent: 12.5 })).json().error).toBe('rent: must be a whole number from 1 to 100,000,000');
    expect((await put({ baths: 1.25 })).json().error).toBe('baths: must be a number from 0 to 50 in steps of 0.5');
    expect((await put({ baths: 51 })).json().error).toBe('baths: must be a number from 0 to 50 in steps of 0.5');
    expect((await put({ year: 1600 })).json().error).toBe('year: must be a whole number of at least 1700');
    const zip = await put({}, '?zip=7870');
    expect(zip.statusCode).toBe(400);
    expect(zip.json()).toMatchObject({ error: 'zip: must be five digits', details: [{ field: 'zip' }] });
    expect((await put({ rent: 1, baths: 2.5, year: 1900 }, '?zip=78701')).statusCode).toBe(200);
  });
});
