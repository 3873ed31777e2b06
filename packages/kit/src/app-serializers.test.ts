import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServiceApp, createServiceApp } from './app.js';
import { createLogger } from './logger.js';

// The kit's apps compile each route's response serializer on its first answer (app.ts,
// lazySerializers); the answers must still be the schema's, on the first call and after.
const logger = createLogger({ name: 'serializers-test', level: 'silent', format: 'json' });
let app: ServiceApp;
afterEach(() => app?.close());

describe('response serializers', () => {
  it('answer by the route schema from the first answer on: properties outside it are left out', async () => {
    app = await createServiceApp({ name: 'test', logger });
    const Thing = Type.Object({ id: Type.String(), count: Type.Integer() });
    app.get('/things/:id', { schema: { response: { 200: Thing } } }, async (req) => ({
      id: (req.params as { id: string }).id,
      count: 3,
      secret: 'not in the schema',
    }));
    app.get('/other', { schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async () => ({
      ok: true,
      extra: 1,
    }));
    await app.ready();
    for (const id of ['a', 'b']) {
      const res = await app.inject({ url: `/things/${id}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(JSON.stringify({ id, count: 3 }));
    }
    expect((await app.inject({ url: '/other' })).body).toBe('{"ok":true}');
  });
});
