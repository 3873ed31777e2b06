import { randomInt, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ZipAnalysis, ZipImportReport } from '@homereport/contracts';
import { MongoClient } from 'mongodb';
import { expect } from 'vitest';
import { createAdmin, runOperatorCommand } from '../../../../test/support/admin.js';
import { type ApiResponse, api, uniqueEmail } from '../../../../test/support/api.js';
import { testEnv } from '../../../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../../../test/support/mail.js';
import { type PlaceInput, generateAnalysis } from '../../tools/generator.js';

/**
 * A ZIP code no other test and no sample uses: 001xx-004xx are not assigned to any U.S. place.
 * Each test file has its own module, so the codes handed out are kept in a file of the run's data
 * folder (files run one at a time): with 400 codes, a set per file let two files pick the same
 * one now and then, and a test that expected a new code to be absent from the list found it.
 * Random within the run so reruns against kept data do not collide either.
 */
export function freshZip(): string {
  const file = join(testEnv().dataDir, 'fresh-zips.txt');
  const used = new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []);
  if (used.size >= 390) throw new Error('freshZip: the 400 unassigned ZIP codes are nearly all used in this run');
  for (;;) {
    const zip = String(randomInt(100, 500)).padStart(5, '0');
    if (!used.has(zip)) {
      appendFileSync(file, `${zip}\n`);
      return zip;
    }
  }
}

/**
 * A fresh ZIP code the server does not hold yet. Test files run in parallel against one database
 * and each has its own `used` set, so a test asserting that a ZIP code stays absent needs this.
 */
export async function absentZip(): Promise<string> {
  for (;;) {
    const zip = freshZip();
    if ((await api('GET', `/api/zipcodes/${zip}`)).status === 404) return zip;
  }
}

/** A valid analysis of a made-up place, from the same generator as the sample data. */
export function buildAnalysis(zip = freshZip(), place: Partial<PlaceInput> = {}): ZipAnalysis {
  return generateAnalysis({
    zip,
    city: 'Testville',
    state: 'OH',
    neighborhood: `Test Heights ${randomUUID().slice(0, 6)}`,
    tier: 2,
    price: 350_000,
    ...place,
  });
}

let adminToken: Promise<string> | undefined;

/** One admin for the file: made with create-admin as an operator would, then signed in. */
export function admin(): Promise<string> {
  adminToken ??= (async () => {
    const email = uniqueEmail('zipadmin');
    const password = 'zip admin password 1';
    const made = await createAdmin(email, password);
    expect(made.code, made.stderr).toBe(0);
    const res = await api<{ token: string }>('POST', '/api/auth/admin-login', { body: { email, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.token;
  })();
  return adminToken;
}

/** A verified user who is not an admin, signed in; returns the session token. */
export async function signedInUser(): Promise<string> {
  const email = uniqueEmail('zipuser');
  const password = 'plain user password';
  expect((await api('POST', '/api/auth/register', { body: { email, password } })).status).toBe(201);
  const mail = await waitForEmail(email, /verify/i);
  const verified = await api('POST', '/api/auth/verify-email', {
    body: { token: tokenOf(linkIn(mail, '/verify-email')) },
  });
  expect(verified.status).toBe(200);
  const res = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

export async function importAnalyses(records: unknown): Promise<ApiResponse<ZipImportReport>> {
  return api<ZipImportReport>('POST', '/api/admin/zipcodes/import', { body: records, token: await admin() });
}

/** The zipcodes service's own collection, to check what was (not) stored. */
export async function withAnalyses<T>(fn: (analyses: import('mongodb').Collection) => Promise<T>): Promise<T> {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    return await fn(client.db('homereport_zipcodes').collection('analyses'));
  } finally {
    await client.close();
  }
}

/** Runs `npm run zip:import` as an operator does, against this test run's database and Redis. */
export const zipImport = (...args: string[]) => runOperatorCommand('services/zipcodes/src/cli/import.ts', ...args);
