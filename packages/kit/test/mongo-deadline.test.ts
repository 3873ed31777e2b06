import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { Infrastructure, type ServiceApp, createLogger, createServiceApp, outsideMongoDeadline } from '../src/index.js';

// One MongoDB deadline per request (connections/mongo-deadline.ts), on the real driver, mongoose
// and server, through the path every service takes (Infrastructure.attach). The budget is the
// MONGO_TIMEOUT_MS of the test's connection; a route that spends it before its last operation
// must answer 503 with Retry-After instead of running that operation with a full deadline of its
// own (which is how a request of many operations used to take several deadlines in a row).
const BUDGET_MS = 1000;
const env = testEnv();
let infra: Infrastructure;
let app: ServiceApp;
/** The result of the work a request left running after its answer (the /background route). */
let background: Promise<unknown> | undefined;

beforeAll(async () => {
  infra = await Infrastructure.open(
    'mongo-deadline-test',
    { MONGO_URL: env.mongoUrl, MONGO_TIMEOUT_MS: BUDGET_MS },
    { mongoDb: 'kit_deadline_test', mongoose: true },
    createLogger({ name: 'mongo-deadline-test', level: 'silent', format: 'json' }),
  );
  app = await createServiceApp({
    name: 'mongo-deadline-test',
    logger: createLogger({ name: 'mongo-deadline-test', level: 'silent', format: 'json' }),
  });
  await infra.attach(app);
  const notes = infra.mongoose.collection('notes');
  const Note = infra.mongoose.model('DeadlineNote', new (await import('mongoose')).Schema({ text: String }), 'notes');
  app.get('/quick', async () => ({ found: (await notes.findOne({ text: 'kept' }))?.text ?? null }));
  // Spends the request's budget elsewhere first (as earlier operations on a slow server would).
  app.get('/late/driver', async () => {
    await notes.findOne({ text: 'kept' });
    await sleep(BUDGET_MS + 100);
    return { found: (await notes.findOne({ text: 'kept' }))?.text ?? null };
  });
  app.post('/late/mongoose', async () => {
    await sleep(BUDGET_MS + 100);
    await Note.create({ text: 'late' });
    return { stored: true };
  });
  // Work slow by design (a password hash queued behind others) that uses no MongoDB.
  app.get('/late/outside', async () => {
    await outsideMongoDeadline(() => sleep(BUDGET_MS + 100));
    return { found: (await notes.findOne({ text: 'kept' }))?.text ?? null };
  });
  // Answers, then keeps working in the request's async context past the budget.
  app.get('/background', async () => {
    background = sleep(BUDGET_MS + 100).then(() => notes.findOne({ text: 'kept' }));
    return { started: true };
  });
  await notes.insertOne({ text: 'kept' });
});

afterAll(async () => {
  await app?.close();
});

describe('the MongoDB deadline of a request', () => {
  it('lets a request that stays within its budget use MongoDB', async () => {
    const res = await app.inject({ method: 'GET', url: '/quick' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ found: 'kept' });
  });

  it('fails an operation started after the budget is spent with 503 and Retry-After (driver)', async () => {
    const res = await app.inject({ method: 'GET', url: '/late/driver' });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('does the same for a write through mongoose, which is then not stored', async () => {
    const res = await app.inject({ method: 'POST', url: '/late/mongoose' });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await infra.mongoose.collection('notes').findOne({ text: 'late' })).toBeNull();
  });

  it('does not count work marked as outside it (a password hash) against the budget', async () => {
    const res = await app.inject({ method: 'GET', url: '/late/outside' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ found: 'kept' });
  });

  it('ends with the answer: work the request left running gets the per-operation deadline', async () => {
    const res = await app.inject({ method: 'GET', url: '/background' });
    expect(res.statusCode).toBe(200);
    await expect(background).resolves.toMatchObject({ text: 'kept' });
  });

  it('leaves operations outside requests alone', async () => {
    const notes = infra.mongoose.collection('notes');
    await sleep(BUDGET_MS + 100);
    expect(await notes.findOne({ text: 'kept' })).toMatchObject({ text: 'kept' });
  });
});
