import { randomUUID } from 'node:crypto';
import { createIndexes } from '@homereport/kit';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { INDEXES } from '../src/data/indexes.js';
import { LeadsRepository } from '../src/data/leads-repository.js';
import type { InboundLead } from '../src/domain/inbound-lead.js';
import type { LeadFilter } from '../src/domain/ports.js';

// The lists behind the leads tab, through the repository against the real database, each test in
// a database of its own: the status lists stay exact under racing changes and gaps, and leads
// stored by the version before status lists are migrated into them.
const admin = { id: 'admin-1', email: 'admin@example.test' };
let client: MongoClient;
const databases: Db[] = [];

beforeAll(async () => {
  client = await MongoClient.connect(testEnv().mongoUrl);
});
afterAll(async () => {
  for (const db of databases) await db.dropDatabase().catch(() => undefined);
  await client?.close();
});

async function freshRepository(prepare?: (db: Db) => Promise<void>) {
  const db = client.db(`leads_lists_${randomUUID().slice(0, 8)}`);
  databases.push(db);
  await prepare?.(db);
  const repo = new LeadsRepository(db, null);
  await createIndexes(db, INDEXES);
  await repo.prepare();
  return { db, repo };
}

const inbound = (i: number): InboundLead => ({
  lead_id: `lead-${i}-${randomUUID().slice(0, 6)}`,
  first_name: 'Lead',
  last_name: String(i),
  email: `lead-${i}@example.test`,
  phone: null,
  campaign_id: null,
  ad_group_id: null,
  form_id: null,
  gcl_id: null,
  is_test: false,
  raw: '{}',
});

/** Every page of a list, following the cursor; also how many pages it took. */
async function everyPage(repo: LeadsRepository, filter: LeadFilter, limit: number) {
  const ids: string[] = [];
  let before: number | null = null;
  let pages = 0;
  do {
    const page = await repo.list(filter, limit, before);
    ids.push(...page.leads.map((l) => l.id));
    before = page.nextBefore;
    pages += 1;
  } while (before !== null && pages < 100);
  return { ids, pages };
}

describe('status lists', () => {
  it('apply racing changes of one lead one after the other: one status, one list, exact counters', async () => {
    const { repo } = await freshRepository();
    expect(await repo.insert('racing', inbound(1), new Date(), null)).toBe('created');
    const statuses = ['contacted', 'qualified', 'converted', 'lost', 'qualified', 'contacted'] as const;
    await Promise.all(statuses.map((to) => repo.changeStatus('1', to, admin, new Date())));

    const lead = await repo.findById('1');
    expect(lead?.status_history.length).toBeGreaterThanOrEqual(1);
    expect(lead?.status_history.at(-1)?.to).toBe(lead?.lead_status);
    // Each recorded change starts where the one before it ended: none was applied on a stale read.
    lead?.status_history.forEach((h, i) => expect(h.from).toBe(i === 0 ? 'new' : lead.status_history[i - 1]?.to));

    for (const status of ['new', 'contacted', 'qualified', 'converted', 'lost'] as const) {
      const listed = (await everyPage(repo, { status }, 50)).ids;
      const byKey = (await everyPage(repo, { status, key_name: 'racing' }, 50)).ids;
      expect(listed).toEqual(status === lead?.lead_status ? ['1'] : []);
      expect(byKey).toEqual(listed);
    }
    const stats = await repo.stats();
    expect(stats.total).toBe(1);
    expect(stats.new + stats.qualified + stats.converted).toBe(
      ['new', 'qualified', 'converted'].includes(lead?.lead_status as string) ? 1 : 0,
    );
  });

  it('step over the gaps leads leave behind: full pages, newest in the status first', async () => {
    const { repo } = await freshRepository();
    await Promise.all(Array.from({ length: 300 }, (_, i) => repo.insert('gaps', inbound(i), new Date(), null)));
    // 290 of 300 leave "new"; the 10 that stay are spread over the whole list.
    const stay = new Set(Array.from({ length: 10 }, (_, i) => String(i * 30 + 7)));
    const leaving = Array.from({ length: 300 }, (_, i) => String(i + 1)).filter((id) => !stay.has(id));
    for (let i = 0; i < leaving.length; i += 10) {
      await Promise.all(leaving.slice(i, i + 10).map((id) => repo.changeStatus(id, 'contacted', admin, new Date())));
    }

    const firstPage = await repo.list({ status: 'new' }, 4, null);
    expect(firstPage.leads).toHaveLength(4);
    const news = await everyPage(repo, { status: 'new' }, 4);
    expect(news.ids).toEqual(
      [...stay]
        .map(Number)
        .sort((a, b) => b - a)
        .map(String),
    );
    expect(news.pages).toBe(3);
    expect((await everyPage(repo, { status: 'new', key_name: 'gaps' }, 4)).ids).toEqual(news.ids);
    expect((await everyPage(repo, { status: 'contacted' }, 200)).ids).toHaveLength(290);
    expect((await everyPage(repo, { status: 'converted', key_name: 'gaps' }, 50)).ids).toEqual([]);
  });
});
