import { randomUUID } from 'node:crypto';
import { createIndexes, databaseOf } from '@homereport/kit';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { INDEXES, createModels } from '../src/data/models.js';
import { sentEmailsRepository } from '../src/data/sent-emails.js';
import type { SentEmail, SentEmails } from '../src/domain/ports.js';

// The repository against the test run's real database, in a throwaway database of its own (the
// stack's notifications service never sees it).
let conn: Connection;
let sent: SentEmails;

beforeAll(async () => {
  conn = await mongoose
    .createConnection(testEnv().mongoUrl, {
      dbName: `notifications_sent_emails_${randomUUID().slice(0, 8)}`,
      serverSelectionTimeoutMS: 5000,
      autoIndex: false,
    })
    .asPromise();
  await createIndexes(databaseOf(conn), INDEXES);
  sent = sentEmailsRepository(await createModels(conn));
});

afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

const row = (eventId: string, smtpMessageId = '<digest@test>'): SentEmail => ({
  eventId,
  kind: 'lead-alert',
  to: 'staff@homereport.local',
  sentAt: new Date(),
  smtpMessageId,
});

describe('sent_emails', () => {
  it('recordMany records every row, and again with some recorded already adds only the new ones', async () => {
    const ids = Array.from({ length: 5 }, () => randomUUID());
    await sent.recordMany(ids.slice(0, 3).map((id) => row(id, '<first@test>')));
    await sent.recordMany(ids.map((id) => row(id, '<second@test>')));
    await sent.recordMany([]);

    const rows = await conn
      .collection('sent_emails')
      .find({ eventId: { $in: ids } })
      .toArray();
    expect(new Map(rows.map((r) => [r.eventId, r.smtpMessageId]))).toEqual(
      new Map([
        ...ids.slice(0, 3).map((id) => [id, '<first@test>'] as const),
        ...ids.slice(3).map((id) => [id, '<second@test>'] as const),
      ]),
    );
    expect(rows).toHaveLength(5);
  });

  it('recordMany throws for anything but a duplicate', async () => {
    const bad = { ...row(randomUUID()), to: undefined } as unknown as SentEmail;
    await expect(sent.recordMany([row(randomUUID()), bad])).rejects.toThrow();
  });
});
