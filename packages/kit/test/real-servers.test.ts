import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { waitForEmail } from '../../../test/support/mail.js';
import { type EventEnvelope, type Infrastructure, type ServiceApp, SharedCounts, createEvent } from '../src/index.js';
import { startNoteService } from './fixture-service.js';

// A round trip through every real server the services use, with the kit's own connections.
describe('the kit against the real servers', () => {
  const env = testEnv();
  let topic: string;
  let infra: Infrastructure;
  let app: ServiceApp;

  beforeAll(async () => {
    ({ infra, app, topic } = await startNoteService('kit-test', { redis: true, s3: true }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('writes a document to MongoDB and reads it back', async () => {
    const res = await app.inject({ method: 'POST', url: '/notes', payload: { text: 'hello mongo' } });
    expect(res.statusCode).toBe(201);
    const stored = await infra.mongo.db!.collection('notes').findOne({ _id: res.json().id });
    expect(stored?.text).toBe('hello mongo');
  });

  it('publishes an outbox event through the relay, consumed once even when delivered twice', async () => {
    const handled: EventEnvelope[] = [];
    const groupId = `kit-test-${randomUUID().slice(0, 8)}`;
    infra.startConsumer(groupId, {
      [topic]: async (event) => {
        handled.push(event);
      },
    });
    const res = await app.inject({ method: 'POST', url: '/notes', payload: { text: 'via kafka' } });
    const { id, eventId } = res.json();
    await eventually(async () => handled.some((e) => e.id === eventId), 45_000, 'the consumer to receive the event');
    expect(handled.find((e) => e.id === eventId)?.data).toEqual({ noteId: id, text: 'via kafka' });

    // The relay removed the event from the document once Kafka acknowledged it.
    const doc = await infra.mongo.db!.collection('notes').findOne({ _id: id });
    expect(doc?.outbox).toEqual([]);

    // Redeliver the very same envelope (as Kafka does after a consumer crash), then a marker.
    const envelope = handled.find((e) => e.id === eventId)!;
    const marker = createEvent(topic, { noteId: 'marker', text: 'marker' }, { source: 'kit-test', key: 'marker' });
    await infra.publisher.publish([{ ...envelope, key: id }, marker]);
    await eventually(async () => handled.some((e) => e.id === marker.id), 30_000, 'the marker event');
    expect(handled.filter((e) => e.id === eventId)).toHaveLength(1);
  });

  it('keeps a key in Redis', async () => {
    const key = `kit-test:${randomUUID()}`;
    await infra.redis.set(key, 'value', 'EX', 60);
    expect(await infra.redis.get(key)).toBe('value');
    expect(await infra.redis.ttl(key)).toBeGreaterThan(0);
  });

  it('adds a request budget’s hits per key in Redis, in a window that closes on its own', async () => {
    const prefix = `kit-test:window:${randomUUID()}:`;
    const counts = new SharedCounts(infra.redis, prefix, 60_000);
    counts.hit('a', 30_000);
    expect(counts.hit('a', 30_000).current).toBe(2);
    // Closing sends what is still counted only here.
    await counts.close();
    expect(await infra.redis.get(`${prefix}a`)).toBe('2');
    expect(await infra.redis.pttl(`${prefix}a`)).toBeGreaterThan(25_000);
    expect(await infra.redis.exists(`${prefix}b`)).toBe(0);
  });

  it('writes an object to S3 and streams it back', async () => {
    const name = `round-trip/${randomUUID()}.txt`;
    const content = Buffer.from('report body '.repeat(1000));
    await infra.s3.putObject(infra.bucket, name, Readable.from(content), content.length, {
      'Content-Type': 'text/plain',
    });
    const stream = await infra.s3.getObject(infra.bucket, name);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('sends an email over SMTP that can be read back from maildev', async () => {
    const to = `round-trip.${randomUUID().slice(0, 8)}@example.test`;
    const transport = nodemailer.createTransport(env.smtpUrl);
    await transport.sendMail({ from: 'kit@homereport.local', to, subject: 'Round trip', text: 'It works.' });
    const mail = await waitForEmail(to, /Round trip/);
    expect(mail.text.trim()).toBe('It works.');
  });

  it('answers readiness with every dependency up', async () => {
    const res = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks).toEqual({ mongo: 'up', redis: 'up', s3: 'up', kafka: 'up' });
  });
});
