import { createHmac } from 'node:crypto';
import { type ServiceApp, createLogger, createServiceApp } from '@homereport/kit';
import { afterEach, describe, expect, it } from 'vitest';
import type { Leads } from '../../domain/leads.js';
import { MetaLeadAds } from '../../domain/meta-lead-ads.js';
import type { GraphLeadRead, StoredKey } from '../../domain/ports.js';
import { metaWebhookRoutes } from './meta.js';

// The Meta routes on an app without servers: what HTTP does before the use case (not configured,
// the raw body and its signature, content types). The stored outcome and the 413 (whose drain
// needs a real socket) are in test/meta.test.ts.

const SECRET = 'unit-app-secret';
const sign = (text: string) => `sha256=${createHmac('sha256', SECRET).update(text).digest('hex')}`;

const key: StoredKey = {
  key_name: 'Meta Lead Ads',
  keyHash: '0'.repeat(64),
  created_at: new Date(),
  last_used: null,
  is_active: true,
};

/** Leads that remembers what it was asked to store (only the two calls the Meta path makes). */
function fakeLeads(stored: string[]): Leads {
  return {
    sourceKey: async () => key,
    store: async (_key: string, lead: { lead_id: string }) => {
      stored.push(lead.lead_id);
      return 'created';
    },
  } as unknown as Leads;
}

const found: GraphLeadRead = {
  kind: 'found',
  lead: { field_data: [{ name: 'email', values: ['a@b.example'] }] },
};

let app: ServiceApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(meta: MetaLeadAds | null, bodyLimit = 4096): Promise<ServiceApp> {
  app = await createServiceApp({
    name: 'leads',
    logger: createLogger({ name: 'leads', level: 'silent', format: 'json' }),
  });
  await app.register(metaWebhookRoutes, { meta, bodyLimit });
  return app;
}

function metaWith(stored: string[]) {
  return new MetaLeadAds(
    fakeLeads(stored),
    { readLead: async () => found },
    {
      appSecret: SECRET,
      verifyToken: 'vt',
      keyName: key.key_name,
    },
  );
}

const body = (leadgenId: string) =>
  JSON.stringify({ object: 'page', entry: [{ changes: [{ field: 'leadgen', value: { leadgen_id: leadgenId } }] }] });

/** A POST of `payload` signed with the app secret, as Meta sends one. */
const postSigned = (app: ServiceApp, payload: string, contentType = 'application/json') =>
  app.inject({
    method: 'POST',
    url: '/api/webhooks/meta',
    headers: { 'content-type': contentType, 'x-hub-signature-256': sign(payload) },
    payload,
  });

describe('Meta webhook routes', () => {
  it('answer 503 with a clear message when META_APP_SECRET is empty', async () => {
    const a = await build(null);
    const get = await a.inject({ url: '/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1' });
    expect(get.statusCode).toBe(503);
    expect(get.json()).toEqual({
      code: 'META_NOT_CONFIGURED',
      error: expect.stringMatching(/META_APP_SECRET is empty/),
    });
    const post = await postSigned(a, body('1'));
    expect(post.statusCode).toBe(503);
    expect(post.json().code).toBe('META_NOT_CONFIGURED');
  });

  it('send the challenge as text/plain, as it came', async () => {
    const a = await build(metaWith([]));
    const res = await a.inject({
      url: '/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=vt&hub.challenge=abc123',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('abc123');
  });

  it('take a signed body whose content type has a charset, and store its lead', async () => {
    const stored: string[] = [];
    const a = await build(metaWith(stored));
    const res = await postSigned(a, body('777'), 'application/json; charset=utf-8');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(stored).toEqual(['777']);
  });

  it('answer 401 to a POST without a body or signature, before any validation', async () => {
    const stored: string[] = [];
    const a = await build(metaWith(stored));
    const res = await a.inject({ method: 'POST', url: '/api/webhooks/meta' });
    expect(res.statusCode).toBe(401);
    expect(stored).toEqual([]);
  });

  it('answer 415 to a body that is not JSON', async () => {
    const a = await build(metaWith([]));
    const res = await postSigned(a, 'x', 'text/plain');
    expect(res.statusCode).toBe(415);
  });
});
