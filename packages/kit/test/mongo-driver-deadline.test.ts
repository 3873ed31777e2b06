import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { Infrastructure, type ServiceApp, createLogger, createServiceApp } from '../src/index.js';

// mongo-deadline.test.ts, on a connection of the driver alone (connectMongoDriver), as services
// without mongoose models (requests, leads) open MongoDB; a file of its own, so no mongoose
// connection in the same process bounds the driver's collections first.
const BUDGET_MS = 1000;
const env = testEnv();
describe('the MongoDB deadline on a driver-only connection', () => {
  let driverInfra: Infrastructure;
  let driverApp: ServiceApp;

  beforeAll(async () => {
    driverInfra = await Infrastructure.open(
      'mongo-deadline-driver-test',
      { MONGO_URL: env.mongoUrl, MONGO_TIMEOUT_MS: BUDGET_MS },
      { mongoDb: 'kit_deadline_test' },
      createLogger({ name: 'mongo-deadline-driver-test', level: 'silent', format: 'json' }),
    );
    driverApp = await createServiceApp({
      name: 'mongo-deadline-driver-test',
      logger: createLogger({ name: 'mongo-deadline-driver-test', level: 'silent', format: 'json' }),
    });
    await driverInfra.attach(driverApp);
    const notes = driverInfra.mongo.db!.collection('notes');
    await notes.updateOne({ text: 'kept' }, { $set: { text: 'kept' } }, { upsert: true });
    driverApp.get('/quick', async () => ({ found: (await notes.findOne({ text: 'kept' }))?.text ?? null }));
    driverApp.get('/late', async () => {
      await notes.findOne({ text: 'kept' });
      await sleep(BUDGET_MS + 100);
      return { found: (await notes.findOne({ text: 'kept' }))?.text ?? null };
    });
  });

  afterAll(async () => {
    await driverApp?.close();
  });

  it('has no mongoose connection', () => {
    expect(() => driverInfra.mongoose).toThrow(/mongoose/);
  });

  it('answers within the budget and fails an operation started after it with 503', async () => {
    const quick = await driverApp.inject({ method: 'GET', url: '/quick' });
    expect(quick.statusCode).toBe(200);
    expect(quick.json()).toEqual({ found: 'kept' });
    const late = await driverApp.inject({ method: 'GET', url: '/late' });
    expect(late.statusCode).toBe(503);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('is ready, and closes with the app', async () => {
    const ready = await driverApp.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
  });
});
