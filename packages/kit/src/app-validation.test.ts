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
