import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { MetaHandshakeQuery, MetaLeadgenValue, MetaWebhookBody } from '@homereport/contracts';
import { type InboundLead, readInboundLead, splitFullName } from './inbound-lead.js';

/**
 * Meta Lead Ads rules, without HTTP: the subscription handshake, the delivery's signature, which
 * changes are new leads, and a Graph API lead read into the same shape as any other inbound lead.
 */

/** A lead as the Graph API answers GET /<leadgen_id> (checked against GraphLead in src/schemas). */
export interface GraphLeadAnswer {
  id?: string;
  created_time?: string;
  field_data: { name: string; values?: unknown[] }[];
}

/** The challenge to echo when Meta's handshake names our verify token; null otherwise (403). */
export function handshakeChallenge(query: MetaHandshakeQuery, verifyToken: string): string | null {
  const challenge = query['hub.challenge'];
  const token = query['hub.verify_token'];
  if (query['hub.mode'] !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  // Digests of equal length, so the compare takes the same time whatever was sent.
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(token), digest(verifyToken)) ? challenge : null;
}

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** Whether `header` (X-Hub-Signature-256) is `sha256=<hex HMAC-SHA256 of exactly these bytes with the app secret>`. */
export function signatureMatches(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  const hex = header === undefined ? undefined : SIGNATURE.exec(header.trim())?.[1];
  if (!hex) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/** One new lead announced by a delivery: its id and what the webhook said about it. */
export interface LeadgenNotice {
  leadgen_id: string;
  value: MetaLeadgenValue;
}

type Notices = { ok: true; notices: LeadgenNotice[] } | { ok: false; field: string };

/**
 * The `leadgen` changes of a delivery, each leadgen_id once (Meta may repeat one within a batch).
 * Other fields (a page's feed, for example) are not leads and are passed over.
 */
export function leadgenNotices(body: MetaWebhookBody): Notices {
  const seen = new Map<string, LeadgenNotice>();
  for (const [e, entry] of body.entry.entries()) {
    for (const [c, change] of (entry.changes ?? []).entries()) {
      if (change.field !== 'leadgen') continue;
      const id = change.value?.leadgen_id;
      const leadgenId = typeof id === 'number' ? String(id) : id?.trim();
      if (!leadgenId || !/^[\w.-]+$/.test(leadgenId)) {
        return { ok: false, field: `entry[${e}].changes[${c}].value.leadgen_id` };
      }
      if (!seen.has(leadgenId)) seen.set(leadgenId, { leadgen_id: leadgenId, value: change.value ?? {} });
    }
  }
  return { ok: true, notices: [...seen.values()] };
}

/** Most form answers kept beyond the mapped ones, and the longest kept value. */
const EXTRA_MAX = 50;
const VALUE_MAX = 1000;

/** Form field names (Meta's standard questions) that fill the lead's own fields. */
const EMAIL_FIELDS = ['email', 'work_email'];
const PHONE_FIELDS = ['phone_number', 'phone', 'work_phone_number'];
const MAPPED = new Set(['full_name', 'first_name', 'last_name', ...EMAIL_FIELDS, ...PHONE_FIELDS]);

type ReadMetaLead = { ok: true; lead: InboundLead } | { ok: false; message: string };

/**
 * A Graph API lead as an inbound lead, like the Google path reads its columns: full_name (or
 * first_name and last_name), email, phone_number; every other answer is kept, with the webhook's
 * ids, in the raw copy under `extra`. `lead_id` is the leadgen_id.
 */
export function readMetaLead(notice: LeadgenNotice, graph: GraphLeadAnswer): ReadMetaLead {
  const answers = new Map<string, string>();
  for (const field of graph.field_data) {
    const name = field.name.trim().toLowerCase();
    const value = (field.values ?? [])
      .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      .map((v) => String(v).trim())
      .filter((v) => v !== '')
      .join(', ');
    if (name !== '' && value !== '' && !answers.has(name)) answers.set(name, value.slice(0, VALUE_MAX));
  }
  const first = (names: string[]) => names.map((n) => answers.get(n)).find((v) => v !== undefined);
  const full = answers.get('full_name');
  const [fullFirst, fullLast] = full ? splitFullName(full) : [undefined, undefined];

  const extra: Record<string, string> = {};
  for (const [name, value] of answers) {
    if (MAPPED.has(name) || Object.keys(extra).length >= EXTRA_MAX) continue;
    extra[name] = value;
  }

  const read = readInboundLead({
    lead_id: notice.leadgen_id,
    first_name: answers.get('first_name') ?? fullFirst,
    last_name: answers.get('last_name') ?? fullLast,
    email: first(EMAIL_FIELDS),
    phone: first(PHONE_FIELDS),
    ad_group_id: notice.value.adgroup_id,
    form_id: notice.value.form_id,
  });
  if (!read.ok) return { ok: false, message: read.message };
  const raw = {
    platform: 'meta',
    ...notice.value,
    ...(graph.created_time ? { graph_created_time: graph.created_time } : {}),
    extra,
  };
  return { ok: true, lead: { ...read.lead, raw: JSON.stringify(raw) } };
}
