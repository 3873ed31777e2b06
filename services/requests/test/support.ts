import { randomUUID } from 'node:crypto';
import type { CreateRequestReply } from '@homereport/contracts';
import { type Role, SessionStore } from '@homereport/kit';
import { Redis } from 'ioredis';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect } from 'vitest';
import { api, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { ACCOUNT_LIMIT_KEY_PREFIX, ANON_LIMIT_KEY_PREFIX } from '../src/data/request-allowance.js';

/**
 * Sessions made the way auth makes them (the kit's SessionStore in this run's Redis): the gateway
 * resolves them like any sign-in. Tests about user counts register real accounts instead.
 */
let redis: Redis | undefined;
const testRedis = () => {
  redis ??= new Redis(testEnv().redisUrl);
  return redis;
};
const store = () => new SessionStore(testRedis());

/**
 * A client address that already sent `count` anonymous requests this hour: the test run allows
 * many (test/global-setup.ts), so a test of the allowance starts just under it.
 */
export async function anonymousRequestsSent(client: string, count: number): Promise<void> {
  await testRedis().set(`${ANON_LIMIT_KEY_PREFIX}${client}`, String(count), 'EX', 3600);
}

/** A signed-in account that already sent `count` coverage requests this hour (as above). */
export async function accountRequestsSent(userId: string, count: number): Promise<void> {
  await testRedis().set(`${ACCOUNT_LIMIT_KEY_PREFIX}${userId}`, String(count), 'EX', 3600);
}

export interface TestUser {
  userId: string;
  email: string;
  token: string;
}

export async function session(role: Role = 'user', label = role): Promise<TestUser> {
  const userId = `t-${randomUUID()}`;
  const email = uniqueEmail(label);
  const token = await store().create({ userId, email, role });
  return { userId, email, token };
}

export const adminSession = () => session('admin');

let mongo: MongoClient | undefined;
/** The requests service's own database, for checks on what was stored and to move a credit period. */
export async function requestsDb(): Promise<Db> {
  mongo ??= new MongoClient(testEnv().mongoUrl);
  await mongo.connect();
  return mongo.db('homereport_requests');
}

export async function closeSupport(): Promise<void> {
  await redis?.quit();
  redis = undefined;
  await mongo?.close();
  mongo = undefined;
}

/**
 * The set-up most files here share: call at the top of a test file for an admin session opened
 * before its tests, and this support's connections closed after them. The answer is filled in
 * by that beforeAll, so it is empty while the file is collected and whole inside every test.
 */
export function useAdmin(): TestUser {
  const admin: TestUser = { userId: '', email: '', token: '' };
  beforeAll(async () => {
    Object.assign(admin, await adminSession());
  });
  afterAll(closeSupport);
  return admin;
}

/** A street address nobody else's test uses. */
export const uniqueAddress = () =>
  `${Math.floor(Math.random() * 9000) + 100} ${randomUUID().slice(0, 8)} Street, Austin, TX`;

export async function submit(body: Record<string, unknown>, token?: string) {
  const res = await api('POST', '/api/requests', { body, token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CreateRequestReply;
}

export async function setStatus(admin: TestUser, id: string, status: string) {
  const res = await api('PUT', `/api/admin/requests/${id}/status`, { token: admin.token, body: { status } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.request;
}

/** A small but real PDF (the files service checks the content, not only the name). */
const reportPdf = (id: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% report of ${id}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );

/** Uploads the main report file of a request, as staff do before marking it covered. */
export async function uploadReport(admin: TestUser, id: string) {
  const form = new FormData();
  form.append('report', new Blob([reportPdf(id)], { type: 'application/pdf' }), 'report.pdf');
  const res = await api('POST', `/api/admin/requests/${id}/upload`, { token: admin.token, raw: form });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.request;
}

/** A request moved to covered by an admin, as staff would: its report uploaded first. */
export async function coveredRequest(admin: TestUser, fields: Record<string, unknown> = {}, token?: string) {
  const { request } = await submit({ address: uniqueAddress(), ...fields }, token);
  await uploadReport(admin, request.id);
  await setStatus(admin, request.id, 'covered');
  return request.id;
}
