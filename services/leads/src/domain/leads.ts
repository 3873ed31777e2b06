import {
  LEADS_PAGE_DEFAULT,
  LEADS_PAGE_MAX,
  LEAD_FIELDS,
  type Lead,
  LeadReceived,
  type LeadStats,
  type LeadStatus,
  type WebhookKey,
} from '@homereport/contracts';
import { type LeadSource, badRequest, businessMetrics, conflict, notFound, unauthorized } from '@homereport/kit';
import { leadReceived } from '../events/published.js';
import { type CsvValue, UTF8_BOM, csvRow } from './csv.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { type InboundLead, keyFromBody, readInboundLead } from './inbound-lead.js';
import { pick } from './pick.js';
import type { Admin, LeadDetail, LeadFilter, LeadRecord, LeadStore, StoredKey, WebhookKeyStore } from './ports.js';
import { checkKeyName, generateWebhookSecret, hashWebhookSecret, hashesEqual } from './webhook-keys.js';

interface LeadsSettings {
  publicUrl: string;
  /** How long a known key is remembered in this process (0: always looked up). */
  keyCacheMs: number;
}

export const Messages = {
  missingKey: 'A webhook key is required: send it in the x-webhook-key header (or google_key for Google Ads).',
  badKey: 'The webhook key is unknown or inactive.',
  keyTaken: 'A webhook key with this name already exists. Choose another name.',
  keyNotFound: 'No webhook key has this name.',
  leadNotFound: 'No lead has this id.',
  badCursor: 'The cursor is not valid for this list. Start again from the first page.',
  badLimit: `limit must be a whole number from 1 to ${LEADS_PAGE_MAX}.`,
} as const;

/** Minimum gap between two last_used writes for one key from this process. */
const TOUCH_INTERVAL_MS = 1000;
const KEY_CACHE_MAX = 1000;

const toKeyView = (k: StoredKey): WebhookKey => ({
  key_name: k.key_name,
  created_at: k.created_at.toISOString(),
  last_used: k.last_used ? k.last_used.toISOString() : null,
  is_active: k.is_active,
});

const toLeadView = (l: LeadRecord): Lead => ({
  ...pick(l, LEAD_FIELDS),
  created_at: l.created_at.toISOString(),
  status_changed_at: l.status_changed_at ? l.status_changed_at.toISOString() : null,
});

/** The part of a lead its lead-received event carries. */
const EVENT_FIELDS = Object.keys(LeadReceived.properties) as (keyof LeadReceived)[];

/** Webhook keys, inbound leads and working them. No HTTP and no database here. */
export class Leads {
  private readonly keyCache = new Map<string, { key: StoredKey; until: number }>();
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly keys: WebhookKeyStore,
    private readonly leads: LeadStore,
    private readonly settings: LeadsSettings,
  ) {}

  get webhookUrl(): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}/api/webhooks/leads`;
  }

  // ---- webhook keys -------------------------------------------------------------------------

  async createKey(input: string, now = new Date()) {
    const check = checkKeyName(input);
    if (!check.ok) throw badRequest(check.message, [{ field: 'key_name', message: check.message }]);
    const secret = generateWebhookSecret();
    const stored = { key_name: check.name, keyHash: hashWebhookSecret(secret), created_at: now };
    if ((await this.keys.create(stored)) === 'taken') throw conflict(Messages.keyTaken);
    return {
      webhook_url: this.webhookUrl,
      webhook_key: secret,
      key: toKeyView({ ...stored, last_used: null, is_active: true }),
    };
  }

  async listKeys() {
    return { keys: (await this.keys.list()).map(toKeyView), webhook_url: this.webhookUrl };
  }

  async toggleKey(keyName: string) {
    const key = await this.keys.toggle(keyName);
    if (!key) throw notFound(Messages.keyNotFound);
    // This process stops (or starts) honouring the key at once; other replicas within keyCacheMs.
    this.keyCache.delete(key.keyHash);
    return { key: toKeyView(key) };
  }

  // ---- inbound ------------------------------------------------------------------------------

  /**
   * Stores a lead posted by an ad platform. The key comes from the x-webhook-key header or the
   * body (`google_key`, `Google_key`). Answers the same for a new lead and a repeated one.
   */
  async receive(headerKey: string | undefined, body: unknown, requestId: string, now = new Date()) {
    const presented = headerKey || keyFromBody(body);
    if (!presented) throw unauthorized(Messages.missingKey);
    const key = await this.verifyKey(presented);
    if (!key) throw unauthorized(Messages.badKey);

    const read = readInboundLead(body);
    if (!read.ok) throw badRequest(read.message, read.details);

    // Google Ads' shape carries its fields in user_column_data; any other post is the generic webhook.
    const source = isGoogleShape(body) ? 'google' : 'webhook';
    const outcome = await this.store(key.key_name, read.lead, requestId, source, now);
    return { ok: true as const, lead_id: read.lead.lead_id, duplicate: outcome === 'duplicate' };
  }

  /**
   * Stores a lead under a key with its lead-received event, as one write: 'duplicate' when this
   * key already brought a lead with this lead_id (then nothing is written or published again).
   */
  async store(keyName: string, lead: InboundLead, requestId: string, source: LeadSource, now = new Date()) {
    const [outcome] = await Promise.all([
      this.leads.insert(keyName, lead, now, (record) =>
        leadReceived(pick(toLeadView(record), EVENT_FIELDS), requestId),
      ),
      this.touch(keyName, now),
    ]);
    if (outcome === 'created') businessMetrics.leadReceived(source);
    return outcome;
  }

  /**
   * The key of a platform that proves itself otherwise (Meta signs its deliveries), made on first
   * need so its leads have a source in the Leads tab. Its secret is drawn and dropped: nobody can
   * post to the generic webhook with it. An admin switches the source off by toggling the key.
   */
  async sourceKey(keyName: string, now = new Date()): Promise<StoredKey> {
    const existing = await this.keys.findByName(keyName);
    if (existing) return existing;
    // Two replicas racing here make one key: the name is the unique _id, the loser reads the winner's.
    await this.keys.create({ key_name: keyName, keyHash: hashWebhookSecret(generateWebhookSecret()), created_at: now });
    const made = await this.keys.findByName(keyName);
    if (!made) throw new Error(`webhook key ${keyName} vanished right after it was made`);
    return made;
  }

  /** The active key whose secret was presented, looked up by its hash and compared in constant time. */
  private async verifyKey(presented: string): Promise<StoredKey | null> {
    if (presented.length > 200) return null;
    const hash = hashWebhookSecret(presented);
    const cached = this.keyCache.get(hash);
    let key = cached && cached.until > Date.now() ? cached.key : null;
    if (!key) {
      key = await this.keys.findByHash(hash);
      if (key && this.settings.keyCacheMs > 0) {
        if (this.keyCache.size >= KEY_CACHE_MAX) this.keyCache.clear();
        this.keyCache.set(hash, { key, until: Date.now() + this.settings.keyCacheMs });
      }
    }
    // The lookup already matched the hash; comparing again in constant time costs nothing and
    // keeps the check honest should the lookup ever become a prefix or case-insensitive match.
    if (!key || !hashesEqual(key.keyHash, hash) || !key.is_active) return null;
    return key;
  }

  private async touch(keyName: string, now: Date): Promise<void> {
    const last = this.touchedAt.get(keyName) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.touchedAt.set(keyName, now.getTime());
    await this.keys.touch(keyName, now);
  }

  // ---- working leads ------------------------------------------------------------------------

  async list(query: LeadFilter & { limit?: number; cursor?: string }) {
    const limit = parseLimit(query.limit);
    const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && before === null) throw badRequest(Messages.badCursor);
    const page = await this.leads.list(filterOf(query), limit, before);
    return {
      leads: page.leads.map(toLeadView),
      next_cursor: page.nextBefore === null ? null : encodeCursor(page.nextBefore),
    };
  }

  async get(id: string) {
    const lead = await this.leads.findById(id);
    if (!lead) throw notFound(Messages.leadNotFound);
    return { lead: toDetailView(lead) };
  }

  async changeStatus(id: string, status: LeadStatus, by: Admin) {
    const lead = await this.leads.changeStatus(id, status, by, new Date());
    if (!lead) throw notFound(Messages.leadNotFound);
    return { lead: toLeadView(lead) };
  }

  stats(): Promise<LeadStats> {
    return this.leads.stats();
  }

  /** Every matching lead as CSV text chunks, newest first, read page by page (never all at once). */
  async *exportCsv(filter: LeadFilter): AsyncGenerator<string> {
    yield UTF8_BOM + csvRow(LEAD_FIELDS);
    let before: number | null = null;
    for (;;) {
      const page = await this.leads.list(filterOf(filter), LEADS_PAGE_MAX, before);
      if (page.leads.length > 0) {
        yield page.leads
          .map((lead) => {
            const view = toLeadView(lead);
            return csvRow(LEAD_FIELDS.map((c) => view[c] as CsvValue));
          })
          .join('');
      }
      if (page.nextBefore === null) return;
      before = page.nextBefore;
    }
  }
}

function toDetailView(lead: LeadDetail) {
  return {
    ...toLeadView(lead),
    status_history: lead.status_history.map((h) => ({ ...h, at: h.at.toISOString() })),
  };
}

function filterOf(query: LeadFilter): LeadFilter {
  return {
    ...(query.status ? { status: query.status } : {}),
    ...(query.key_name ? { key_name: query.key_name.normalize('NFC').trim() } : {}),
  };
}

/** The route's schema bounds it already; checked again for any other caller. */
function parseLimit(limit: number | undefined): number {
  if (limit === undefined) return LEADS_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LEADS_PAGE_MAX) throw badRequest(Messages.badLimit);
  return limit;
}

const isGoogleShape = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && 'user_column_data' in body;
