import type { ZipListPage } from '@homereport/contracts';
import { CACHE_GENERATION_CHANNEL, type ServiceApp } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  adminSession,
  closeSupport,
  coveredRequest,
  uniqueAddress,
} from '../../services/requests/test/support.js';
import { buildAnalysis, importAnalyses } from '../../services/zipcodes/test/support/zipcodes.js';
import { api, eventually } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { replicaGateway } from './support/replica.js';

/*
 * Decision 008: each public list has one cache layer. The covered list's first page and every ZIP
 * list answer are kept by the gateway only, the covered search by the requests service's catalogue,
 * ZIP details by the zipcodes service. A write made through one gateway must stop every other
 * gateway from serving what it kept. Here a second gateway (built in this process, on the same
 * Redis and services) plays the other replica; writes go through the stack's gateway.
 *
 * A replica hears of a change on a Redis channel, after the write is answered. So as not to
 * assert on timing, each check publishes a sentinel on that channel after the write and waits
 * until the replica has acted on it: a subscriber gets its messages in order, so by then it has
 * also heard of the write's bump, and anything it still served from before would be stale.
 */

let replica: ServiceApp;
let publisher: Redis;
let admin: TestUser;

beforeAll(async () => {
  replica = await replicaGateway();
  publisher = new Redis(testEnv().redisUrl);
  admin = await adminSession();
});
afterAll(async () => {
  await replica?.close();
  await publisher?.quit();
  await closeSupport();
});

const fromReplica = async (url: string) => {
  const res = await replica.inject({ method: 'GET', url });
  return { status: res.statusCode, cache: res.headers['x-cache'], body: res.json() };
};

/** Asks the replica until `url` is a hit: kept, and so stale should a write go unheard. */
async function keptByReplica(url: string): Promise<void> {
  await eventually(async () => (await fromReplica(url)).cache === 'hit', 10_000, `the replica to keep ${url}`);
}

/**
 * Announces a bump of `key` (without changing it, as only a listening gateway reacts to that) and
 * waits until the replica has dropped `kept`, which that key's bump drops.
 */
async function replicaHeard(key: string, kept: string): Promise<void> {
  await publisher.publish(CACHE_GENERATION_CHANNEL, key);
  await eventually(async () => (await fromReplica(kept)).cache === 'miss', 10_000, `the replica to drop ${kept}`);
}

const ZIP_SENTINEL = '/api/zipcodes?limit=1';
const COVERED = '/api/requests/covered';
const idsOf = (body: { properties: { id: string }[] }) => body.properties.map((p) => p.id);

describe('kept public answers across two gateways', () => {
  it('the covered list and its search: a request covered through one gateway is listed by the other', async () => {
    await coveredRequest(admin);
    await keptByReplica(COVERED);
    await keptByReplica(ZIP_SENTINEL);
    const address = uniqueAddress();
    const word = address.split(' ')[1] ?? '';
    const id = await coveredRequest(admin, { address });

    await replicaHeard('zipcodes:list:generation', ZIP_SENTINEL);
    const list = await fromReplica(COVERED);
    expect(list.cache).toBe('miss');
    expect(idsOf(list.body)).toContain(id);
    // The search is answered by the service's catalogue every time; no gateway keeps it.
    const search = await fromReplica(`${COVERED}?q=${word}`);
    expect(search.cache).toBeUndefined();
    expect(idsOf(search.body)).toEqual([id]);
    // And the service keeps no first page of its own that could lag behind.
    const env = testEnv();
    const direct = await fetch(`http://127.0.0.1:${env.servicePorts.requests}${COVERED}`, {
      headers: { 'x-internal-secret': env.internalSecret },
    });
    expect(idsOf((await direct.json()) as { properties: { id: string }[] })).toContain(id);
  });

  it('a request leaving covered through one gateway leaves the other gateway’s list', async () => {
    const id = await coveredRequest(admin);
    // Kept by the replica with the request in it (the replica may hear of the change a moment later).
    await eventually(
      async () => {
        const list = await fromReplica(COVERED);
        return list.cache === 'hit' && idsOf(list.body).includes(id);
      },
      10_000,
      'the replica to keep the list with the request',
    );
    await keptByReplica(ZIP_SENTINEL);
    const moved = await api('PUT', `/api/admin/requests/${id}/status`, {
      token: admin.token,
      body: { status: 'in_progress' },
    });
    expect(moved.status).toBe(200);

    await replicaHeard('zipcodes:list:generation', ZIP_SENTINEL);
    expect(idsOf((await fromReplica(COVERED)).body)).not.toContain(id);
  });

  it('the ZIP list, its search and a detail: an import through one gateway shows on the other', async () => {
    const analysis = buildAnalysis();
    const neighborhood = analysis.reportMetadata.location.neighborhood ?? '';
    const search = `/api/zipcodes?q=${encodeURIComponent(neighborhood)}&limit=24`;
    const detail = `/api/zipcodes/${analysis.zipCode}`;
    expect((await fromReplica(search)).body.showing).toBe(0);
    await keptByReplica(search);
    // Details are kept by the service (one layer), not by the gateway.
    expect((await fromReplica(detail)).status).toBe(404);
    expect((await fromReplica(detail)).cache).toBeUndefined();
    await keptByReplica(COVERED);

    expect((await importAnalyses([analysis])).body.imported).toEqual([analysis.zipCode]);

    await replicaHeard('requests:covered:generation', COVERED);
    const found = await fromReplica(search);
    expect(found.cache).toBe('miss');
    expect((found.body as ZipListPage).zipCodes.map((i) => i.zipCode)).toEqual([analysis.zipCode]);
    const shown = await fromReplica(detail);
    expect(shown.status).toBe(200);
    expect(shown.body.zipCode).toEqual(analysis);
  });
});
