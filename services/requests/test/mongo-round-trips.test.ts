import { randomUUID } from 'node:crypto';
import { type OutboxRecorder, createIndexes, markingRecorder } from '@homereport/kit';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { INDEXES, collections, prepare } from '../src/data/collections.js';
import { RequestsRepository } from '../src/data/requests-repository.js';
import type { FileRef } from '../src/domain/ports.js';

// With MongoDB 500 ms slower a call must answer within 2 s of that latency (issue 22,
// bench:faults), and each request's MongoDB work within its deadline (MONGO_TIMEOUT_MS, 1.5 s):
// every round trip one after another on its path counts. Recording an upload's files is one;
// a coverage request's insert waits for one before it (its sequence number, the outbox's
// marker and the caller's duplicate check together), not three. The repository against the
// real MongoDB, in a database of this test's own, watching the commands the driver sends.
const env = testEnv();
let client: MongoClient;
let repository: RequestsRepository;
let marking: RequestsRepository;
const commands: string[] = [];
/** Each command's start and end, in order (`started insert`, `succeeded insert`). */
const timeline: string[] = [];
let counting = false;

// Writes whose events this test does not publish: the write alone.
const noOutbox: OutboxRecorder = { record: (_collection, _id, write) => write() };

beforeAll(async () => {
  client = await new MongoClient(env.mongoUrl, { monitorCommands: true }).connect();
  client.on('commandStarted', (event) => {
    if (!counting) return;
    commands.push(event.commandName);
    timeline.push(`started ${event.commandName}`);
  });
  client.on('commandSucceeded', (event) => {
    if (counting) timeline.push(`succeeded ${event.commandName}`);
  });
  const db = client.db('requests_record_files_test');
  const c = collections(db);
  await createIndexes(db, INDEXES);
  await prepare(c);
  repository = new RequestsRepository(c, noOutbox);
  // As the service's relay records: the outbox's marker written first, then the document.
  marking = new RequestsRepository(c, markingRecorder(db));
});
afterAll(async () => {
  await client?.close();
});

const file = (key: string): FileRef => ({
  key,
  name: `${key}.pdf`,
  contentType: 'application/pdf',
  size: 1234,
  uploaded_at: new Date('2026-11-26T01:00:00.000Z'),
});

const request = (id: string) => ({
  id,
  address: `${randomUUID().slice(0, 8)} Record Files Road, Austin, TX`,
  addressKey: randomUUID(),
  propertyId: randomUUID(),
  url: null,
  notes: null,
  created_at: new Date('2026-11-25T12:00:00.000Z'),
  requester: null,
});

async function newRequest() {
  const id = repository.newId();
  await repository.insert(request(id), [], randomUUID());
  return id;
}

async function counted<T>(call: () => Promise<T>): Promise<T> {
  commands.length = 0;
  timeline.length = 0;
  counting = true;
  try {
    return await call();
  } finally {
    counting = false;
  }
}

describe('setFiles', () => {
  it('is one command, and answers the request as stored and the files it replaced', async () => {
    const id = await newRequest();
    await repository.setFiles(id, { report: file('old-report'), strategy: file('strategy') }, new Date());

    const at = new Date('2026-11-26T02:00:00.000Z');
    const result = await counted(() => repository.setFiles(id, { report: file('new-report') }, at));

    expect(commands).toEqual(['findAndModify']);
    expect(result?.replaced.map((f) => f.key)).toEqual(['old-report']);
    // What it answers is what a read finds now: the new report beside the strategy kept.
    expect(result?.after).toEqual(await repository.find(id));
    expect(result?.after.files.report?.key).toBe('new-report');
    expect(result?.after.files.strategy?.key).toBe('strategy');
    expect(result?.after.updated_at).toEqual(at);
  });

  it('answers null for an unknown request, in one command', async () => {
    const result = await counted(() => repository.setFiles(repository.newId(), { report: file('x') }, new Date()));
    expect(result).toBeNull();
    expect(commands).toEqual(['findAndModify']);
  });
});

describe('insert', () => {
  it('takes the sequence number while the outbox marks the document, and writes once the check it was given is done', async () => {
    // Idle connections for both commands, so neither waits for one to be opened.
    await Promise.all(Array.from({ length: 4 }, () => client.db('admin').command({ ping: 1 })));
    const id = marking.newId();
    let checked!: () => void;
    const check = new Promise<void>((resolve) => {
      checked = resolve;
    });
    const stored = await counted(async () => {
      const inserting = marking.insert(request(id), [], randomUUID(), check);
      await eventually(
        async () => timeline.includes('succeeded findAndModify') && timeline.includes('succeeded update'),
        10_000,
        'the sequence number and the marker',
      );
      expect(commands).not.toContain('insert');
      checked();
      return inserting;
    });
    // Both sent before either answered: one round trip, not two.
    expect(timeline.slice(0, 2).sort()).toEqual(['started findAndModify', 'started update']);
    expect(timeline.at(-1)).toBe('succeeded insert');
    expect(await repository.find(id)).toEqual(stored);
  });

  it('stores nothing when the check it was given fails', async () => {
    const id = marking.newId();
    const failing = Promise.reject(new Error('the duplicate check timed out (test)'));
    failing.catch(() => undefined); // rejected before insert awaits it, as a real check may be
    await expect(marking.insert(request(id), [], randomUUID(), failing)).rejects.toThrow('timed out (test)');
    expect(await repository.find(id)).toBeNull();
  });
});
