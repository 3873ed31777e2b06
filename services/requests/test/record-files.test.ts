import { randomUUID } from 'node:crypto';
import type { OutboxRecorder } from '@homereport/kit';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { collections, prepare } from '../src/data/collections.js';
import { RequestsRepository } from '../src/data/requests-repository.js';
import type { FileRef } from '../src/domain/ports.js';

// Recording an upload's files is one MongoDB round trip: with MongoDB 500 ms slower an upload
// (files service, then this) must answer within 2 s of that latency (issue 22, bench:faults),
// and each round trip of the request's path counts. The repository against the real MongoDB,
// in a database of this test's own, counting the commands the driver sends.
const env = testEnv();
let client: MongoClient;
let repository: RequestsRepository;
const commands: string[] = [];
let counting = false;

// Writes whose events this test does not publish: the write alone.
const noOutbox: OutboxRecorder = { record: (_collection, _id, write) => write() };

beforeAll(async () => {
  client = await new MongoClient(env.mongoUrl, { monitorCommands: true }).connect();
  client.on('commandStarted', (event) => {
    if (counting) commands.push(event.commandName);
  });
  const c = collections(client.db('requests_record_files_test'));
  await prepare(c);
  repository = new RequestsRepository(c, noOutbox);
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

async function newRequest() {
  const id = repository.newId();
  const created = new Date('2026-11-25T12:00:00.000Z');
  await repository.insert(
    {
      id,
      address: `${randomUUID().slice(0, 8)} Record Files Road, Austin, TX`,
      addressKey: randomUUID(),
      url: null,
      notes: null,
      created_at: created,
      requester: null,
    },
    [],
    randomUUID(),
  );
  return id;
}

async function counted<T>(call: () => Promise<T>): Promise<T> {
  commands.length = 0;
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
