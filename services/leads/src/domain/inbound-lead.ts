import type { Lead, PostedLeadField } from '@homereport/contracts';

/**
 * What an ad platform posts, read into one shape. Two shapes arrive: the generic one
 * (`{ lead_id, first_name, last_name, email, phone, campaign_id, ad_group_id }`) and Google Ads'
 * lead form webhook (`lead_id`, `user_column_data[]`, `campaign_id`, `adgroup_id`, `form_id`,
 * `gcl_id`, `is_test`, `google_key`). Unknown fields are ignored here and kept in the raw copy.
 */

/** The fields a platform posts (POSTED_LEAD_FIELDS in packages/contracts), and the raw copy. */
export type InboundLead = Pick<Lead, PostedLeadField> & {
  /** The body as posted, minus the key, as JSON text (field names from outside never become paths). */
  raw: string;
};

type ReadLead =
  | { ok: true; lead: InboundLead }
  | { ok: false; message: string; details: { field: string; message: string }[] };

const LEAD_ID_MAX_LENGTH = 200;
const NAME_MAX = 200;
const EMAIL_MAX = 320;
const PHONE_MAX = 50;
const ID_MAX = 100;

/** The body fields that may carry the key: Google's documented name and the one its test sends. */
const KEY_FIELDS = new Set(['google_key']);

/** The key from the body (Google Ads sends it there; `Google_key` from its "send test data"). */
export function keyFromBody(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  for (const name of ['google_key', 'Google_key']) {
    const value = body[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

export function readInboundLead(body: unknown): ReadLead {
  if (!isRecord(body)) {
    return {
      ok: false,
      message: 'The body must be a JSON object describing one lead.',
      details: [{ field: '', message: 'must be an object' }],
    };
  }
  const columns = readColumns(body.user_column_data);
  const column = (...ids: string[]) => {
    for (const id of ids) {
      const value = columns.get(id);
      if (value) return value;
    }
    return null;
  };

  const leadId = idText(body.lead_id, Number.POSITIVE_INFINITY);
  const fullName = column('FULL_NAME');
  const [fullFirst, fullLast] = fullName ? splitFullName(fullName) : ['', ''];
  const first = text(body.first_name, NAME_MAX) ?? column('FIRST_NAME') ?? fullFirst;
  const last = text(body.last_name, NAME_MAX) ?? column('LAST_NAME') ?? fullLast;
  const email = text(body.email, EMAIL_MAX) ?? column('EMAIL', 'WORK_EMAIL');
  const phone = idText(body.phone, PHONE_MAX) ?? column('PHONE_NUMBER', 'WORK_PHONE');

  const details: { field: string; message: string }[] = [];
  const missing: string[] = [];
  if (!leadId) {
    missing.push('lead_id');
    details.push({ field: 'lead_id', message: 'is required' });
  }
  if (!email && !phone) {
    missing.push('an email or a phone number');
    details.push({ field: 'email', message: 'an email or a phone number is required' });
  }
  if (!leadId || missing.length > 0) {
    return { ok: false, message: `The lead is missing ${missing.join(' and ')}.`, details };
  }
  if (leadId.length > LEAD_ID_MAX_LENGTH) {
    const message = `must be at most ${LEAD_ID_MAX_LENGTH} characters`;
    return { ok: false, message: `lead_id ${message}.`, details: [{ field: 'lead_id', message }] };
  }

  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!KEY_FIELDS.has(name.toLowerCase())) raw[name] = value;
  }

  return {
    ok: true,
    lead: {
      lead_id: leadId,
      first_name: clip(first, NAME_MAX),
      last_name: clip(last, NAME_MAX),
      email: email ? clip(email, EMAIL_MAX) : null,
      phone: phone ? clip(phone, PHONE_MAX) : null,
      campaign_id: idText(body.campaign_id, ID_MAX),
      ad_group_id: idText(body.ad_group_id, ID_MAX) ?? idText(body.adgroup_id, ID_MAX),
      form_id: idText(body.form_id, ID_MAX),
      gcl_id: idText(body.gcl_id, ID_MAX),
      is_test: flag(body.is_test),
      raw: JSON.stringify(raw),
    },
  };
}

/** "Mary Ann Smith" → ["Mary", "Ann Smith"]: the first word is the first name, the rest the last. */
export function splitFullName(fullName: string): [string, string] {
  const trimmed = fullName.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) return [clip(trimmed, NAME_MAX), ''];
  return [clip(trimmed.slice(0, space), NAME_MAX), clip(trimmed.slice(space).trim(), NAME_MAX)];
}

function readColumns(value: unknown): Map<string, string> {
  const columns = new Map<string, string>();
  if (!Array.isArray(value)) return columns;
  for (const entry of value) {
    if (!isRecord(entry)) continue;
    const id = typeof entry.column_id === 'string' ? entry.column_id.trim().toUpperCase() : '';
    const cell = idText(entry.string_value, NAME_MAX + EMAIL_MAX);
    if (id && cell && !columns.has(id)) columns.set(id, cell);
  }
  return columns;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A trimmed, non-blank string, or null. */
function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : clip(trimmed, max);
}

/** Ids and phone numbers may arrive as numbers (int64 ids as digit strings, see json-body.ts). */
function idText(value: unknown, max: number): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return text(value, max);
}

function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['true', '1', 'yes'].includes(value.trim().toLowerCase());
  return false;
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
