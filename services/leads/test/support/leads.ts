import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { type Db, MongoClient } from 'mongodb';
import { expect } from 'vitest';
import { createAdmin } from '../../../../test/support/admin.js';
import { type ApiResponse, api, eventually, uniqueEmail } from '../../../../test/support/api.js';
import { testEnv } from '../../../../test/support/env.js';
import type { EventTap, SeenEvent } from '../../../../test/support/events.js';
import { linkIn, tokenOf, waitForEmail } from '../../../../test/support/mail.js';
import { genericLead } from './payloads.js';

export { genericLead, googleLead, googleLeadRead, uniqueLeadId } from './payloads.js';

export const PASSWORD = 'correct horse leads';

/** A fresh admin's session token (the operator command, then admin sign-in through the gateway). */
export async function adminToken(): Promise<{ token: string; email: string }> {
  const email = uniqueEmail('leads-admin');
  const run = await createAdmin(email, PASSWORD);
  expect(run.code, run.stderr).toBe(0);
  const res = await api<{ token: string }>('POST', '/api/auth/admin-login', { body: { email, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.token, email };
}

/** A verified, signed-in customer (not an admin). */
export async function userToken(): Promise<string> {
  const email = uniqueEmail('leads-user');
  expect((await api('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
  const mail = await waitForEmail(email, /verify/i);
  const token = tokenOf(linkIn(mail, '/verify-email?token='));
  expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
  const res = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.token;
}

export const uniqueKeyName = (label = 'source') => `${label} ${randomUUID().slice(0, 8)}`;

export interface CreatedKey {
  name: string;
  secret: string;
  webhookUrl: string;
}

export async function createKey(token: string, name = uniqueKeyName()): Promise<CreatedKey> {
  const res = await api('POST', '/api/admin/webhook-keys', { token, body: { key_name: name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { name: res.body.key.key_name, secret: res.body.webhook_key, webhookUrl: res.body.webhook_url };
}

export function postLead(body: unknown, key?: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api('POST', '/api/webhooks/leads', {
    body,
    headers: { ...(key ? { 'x-webhook-key': key } : {}), ...headers },
  });
}

/** The leads service's own database, for checks on what was stored. */
export async function withLeadsDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    return await fn(client.db('homereport_leads'));
  } finally {
    await client.close();
  }
}

/** Every lead of a key, newest first, through the API (following cursors). */
export async function allLeads(token: string, query: Record<string, string> = {}): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const params: URLSearchParams = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const res: ApiResponse = await api('GET', `/api/admin/leads?${params}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.leads);
    cursor = res.body.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('more than 100 pages');
}

export async function stats(token: string) {
  const res = await api('GET', '/api/admin/leads/stats', { token });
  expect(res.status).toBe(200);
  return res.body as { total: number; new: number; qualified: number; converted: number };
}

/** A stored lead's document id, as its event's key and the batch markers name it. */
export const leadDocId = (keyName: string, leadId: string) => `${encodeURIComponent(keyName)}:${leadId}`;

/** Waits until no batch marker names these leads: nothing of theirs is left for the relay to publish. */
export function nothingLeftToPublish(docIds: string[]): Promise<true> {
  return eventually(
    async () =>
      (await withLeadsDb((db) => db.collection('lead_event_batches').countDocuments({ ids: { $in: docIds } }))) === 0,
    30_000,
    'no batch marker left for the leads',
  );
}

/**
 * Later leads (with `key`, a key of their own so no test counts them) until the tap has seen one
 * on each of `partitions` (all by default): see EventTap.sentinels.
 */
export function leadSentinels(
  tap: EventTap,
  key: CreatedKey,
  partitions?: number[],
): Promise<SeenEvent<{ lead_id: string }>[]> {
  return tap.sentinels<{ lead_id: string }>(
    Topics.leadReceived,
    async () => {
      const lead = genericLead();
      const res = await postLead(lead, key.secret);
      if (res.status !== 200) throw new Error(`a sentinel lead answered ${res.status}`);
      return (d) => d.lead_id === lead.lead_id;
    },
    partitions,
  );
}
