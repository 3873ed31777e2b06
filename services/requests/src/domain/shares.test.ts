import type { Identity } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import type { ActivityStore, RequestRecord, RequestStore } from './ports.js';
import { shareTokenKey, signShareToken } from './share-token.js';
import { type ShareRecord, type ShareStore, Shares } from './shares.js';

const DAY = 24 * 60 * 60 * 1000;
const tokenKey = shareTokenKey('', 'an internal secret of some length');
const user: Identity = { userId: 'u1', email: 'u1@example.test', role: 'user' };
const covered = { id: 'r1', status: 'covered', files: {}, notes: 'mine' } as unknown as RequestRecord;

/** Shares over in-memory stand-ins; `opened` says whether r1 is in the user's period list. */
function build({ now, opened = true, anchor = true }: { now: Date; opened?: boolean; anchor?: boolean }) {
  const stored = new Map<string, ShareRecord>();
  const shares: ShareStore = {
    epoch: async () => 0,
    insert: async (share) => void stored.set(share.id, share),
    find: async (id) => stored.get(id) ?? null,
    revoke: async () => {},
    forget: async () => 0,
  };
  const requests = {
    find: async (id: string) => (id === covered.id ? { ...covered, created_at: now, updated_at: now } : null),
  } as unknown as RequestStore;
  const activity = {
    find: async () => (anchor ? { anchor: new Date(now.getTime() - DAY) } : null),
  } as unknown as ActivityStore;
  const service = new Shares({
    requests,
    properties: { find: async () => null },
    activity,
    opened: { wasOpened: async () => opened, markOpened: async () => {} },
    shares,
    signer: { sign: (key) => `/api/files/${key}?signed` },
    tokenKey,
    publicUrl: 'https://homereport.example/',
    lifetimeDays: 0.5,
    now: () => now,
  });
  return { service, stored };
}

describe('share links', () => {
  const now = new Date(Date.UTC(2026, 0, 1, 12, 0, 0, 250));

  it('makes a link under PUBLIC_URL expiring after the configured lifetime, in whole seconds', async () => {
    const { service, stored } = build({ now });
    const link = await service.create('r1', user);
    expect(link.share_url).toMatch(/^https:\/\/homereport\.example\/shared\/[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
    expect(link.expires_at).toBe(new Date(Date.UTC(2026, 0, 2, 0, 0, 0)).toISOString());
    expect([...stored.values()][0]).toMatchObject({ userId: 'u1', requestId: 'r1', epoch: 0 });
  });

  it('refuses with 403 a report not opened this period, or by a user who never opened any', async () => {
    await expect(build({ now, opened: false }).service.create('r1', user)).rejects.toMatchObject({ statusCode: 403 });
    await expect(build({ now, anchor: false }).service.create('r1', user)).rejects.toMatchObject({ statusCode: 403 });
    await expect(build({ now }).service.create('unknown', user)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('answers 410 for a token past its own expiry, even when its record is gone', async () => {
    const { service } = build({ now });
    const token = signShareToken(tokenKey, 'A'.repeat(22), new Date(now.getTime() - 1000));
    await expect(service.open(token)).rejects.toMatchObject({ statusCode: 410, code: 'SHARE_LINK_GONE' });
  });

  it('answers 404 for a token in date whose record does not exist, and shows a stored one without notes', async () => {
    const { service } = build({ now });
    const orphan = signShareToken(tokenKey, 'B'.repeat(22), new Date(now.getTime() + DAY));
    await expect(service.open(orphan)).rejects.toMatchObject({ statusCode: 404 });
    const link = await service.create('r1', user);
    const request = await service.open(new URL(link.share_url).pathname.replace('/shared/', ''));
    expect(request).toMatchObject({ id: 'r1', notes: null });
  });
});
