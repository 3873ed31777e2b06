import { type Static, Type } from '@sinclair/typebox';

/**
 * HTTP shapes of webhook keys and leads (api.md, "Admin: webhook keys and leads" and "Inbound
 * leads"). The leads service validates with these schemas; the web app takes its types from them.
 */

export const KEY_NAME_MAX_LENGTH = 100;
export const LEADS_PAGE_DEFAULT = 50;
export const LEADS_PAGE_MAX = 200;

/** The statuses an admin can set; a lead arrives as `new`. */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export const LeadStatus = Type.Union(LEAD_STATUSES.map((s) => Type.Literal(s)));
export type LeadStatus = (typeof LEAD_STATUSES)[number];

const Timestamp = Type.String({ description: 'ISO 8601 timestamp in UTC' });
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const WebhookKey = Type.Object({
  key_name: Type.String(),
  created_at: Timestamp,
  last_used: Type.Union([Timestamp, Type.Null()]),
  is_active: Type.Boolean(),
});
export type WebhookKey = Static<typeof WebhookKey>;

/** GET /api/admin/webhook-keys. `webhook_url` (beyond api.md) is the one URL every key posts to. */
export const WebhookKeysReply = Type.Object({ keys: Type.Array(WebhookKey), webhook_url: Type.String() });
export type WebhookKeysReply = Static<typeof WebhookKeysReply>;

/** A key's name, as kept: trimmed (by the service, before this applies), not blank, no control characters. */
const KeyName = Type.String({
  minLength: 1,
  maxLength: KEY_NAME_MAX_LENGTH,
  pattern: '^\\P{Cc}*\\S\\P{Cc}*$',
  description: `Trimmed, then 1 to ${KEY_NAME_MAX_LENGTH} characters, not blank, no control characters`,
});

/** POST /api/admin/webhook-keys. Blank is a 400, a taken name a 409. */
export const CreateWebhookKeyBody = Type.Object({ key_name: KeyName }, { additionalProperties: false });
export type CreateWebhookKeyBody = Static<typeof CreateWebhookKeyBody>;

/** 201 of POST /api/admin/webhook-keys: the secret is in this answer and nowhere else, ever. */
export const CreateWebhookKeyReply = Type.Object({
  webhook_url: Type.String(),
  webhook_key: Type.String(),
  key: WebhookKey,
});
export type CreateWebhookKeyReply = Static<typeof CreateWebhookKeyReply>;

/** PUT /api/admin/webhook-keys/:key_name/toggle */
export const ToggleWebhookKeyReply = Type.Object({ key: WebhookKey });
export type ToggleWebhookKeyReply = Static<typeof ToggleWebhookKeyReply>;

/**
 * A lead as read: its fields are declared here once, in the order of the CSV export's columns.
 * The leads service derives its stored document, list rows and record mapping from them, and
 * the lead-received event is a part of them. Beyond spec section 3: `key_name` (which key
 * brought it), the Google ids, `is_test`, and who last changed the status and when. `id` is
 * opaque (a sequence number).
 */
export const Lead = Type.Object({
  id: Type.String(),
  lead_id: Type.String(),
  key_name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: NullableString,
  phone: NullableString,
  campaign_id: NullableString,
  ad_group_id: NullableString,
  form_id: NullableString,
  gcl_id: NullableString,
  is_test: Type.Boolean(),
  lead_status: LeadStatus,
  created_at: Timestamp,
  status_changed_at: Type.Union([Timestamp, Type.Null()]),
  status_changed_by: NullableString,
});
export type Lead = Static<typeof Lead>;
export type LeadField = keyof Lead;

/** Every field of a lead, in order: the columns of GET /api/admin/leads/export.csv. */
export const LEAD_FIELDS = Object.keys(Lead.properties) as LeadField[];

/** The fields the leads service gives a lead; the others are what an ad platform posted. */
export const ASSIGNED_LEAD_FIELDS = [
  'id',
  'key_name',
  'lead_status',
  'created_at',
  'status_changed_at',
  'status_changed_by',
] as const satisfies readonly LeadField[];
export type AssignedLeadField = (typeof ASSIGNED_LEAD_FIELDS)[number];

/** What an ad platform posts, as read from either shape it posts in. */
export type PostedLeadField = Exclude<LeadField, AssignedLeadField>;
export const POSTED_LEAD_FIELDS = LEAD_FIELDS.filter(
  (f): f is PostedLeadField => !(ASSIGNED_LEAD_FIELDS as readonly string[]).includes(f),
);

/** One recorded status change: who (the admin's id and email) and when. */
export const LeadStatusChange = Type.Object({
  from: LeadStatus,
  to: LeadStatus,
  by: Type.Object({ id: Type.String(), email: Type.String() }),
  at: Timestamp,
});
export type LeadStatusChange = Static<typeof LeadStatusChange>;

/** GET /api/admin/leads query. */
export const LeadsQuery = Type.Object(
  {
    status: Type.Optional(LeadStatus),
    key_name: Type.Optional(Type.String({ minLength: 1, maxLength: KEY_NAME_MAX_LENGTH })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: LEADS_PAGE_MAX, description: `default ${LEADS_PAGE_DEFAULT}` }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type LeadsQuery = Static<typeof LeadsQuery>;

/** GET /api/admin/leads: newest first; `next_cursor` is null on the last page. */
export const LeadsReply = Type.Object({ leads: Type.Array(Lead), next_cursor: NullableString });
export type LeadsReply = Static<typeof LeadsReply>;

/** GET /api/admin/leads/export.csv query. */
export const LeadsExportQuery = Type.Object(
  {
    status: Type.Optional(LeadStatus),
    key_name: Type.Optional(Type.String({ minLength: 1, maxLength: KEY_NAME_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type LeadsExportQuery = Static<typeof LeadsExportQuery>;

/** GET /api/admin/leads/:id (beyond api.md): the lead with every recorded status change, oldest first. */
export const LeadDetailReply = Type.Object({
  lead: Type.Composite([Lead, Type.Object({ status_history: Type.Array(LeadStatusChange) })]),
});
export type LeadDetailReply = Static<typeof LeadDetailReply>;

/** PUT /api/admin/leads/:id/status */
export const UpdateLeadStatusBody = Type.Object({ status: LeadStatus }, { additionalProperties: false });
export type UpdateLeadStatusBody = Static<typeof UpdateLeadStatusBody>;

export const UpdateLeadStatusReply = Type.Object({ lead: Lead });
export type UpdateLeadStatusReply = Static<typeof UpdateLeadStatusReply>;

/** GET /api/admin/leads/stats: kept counters; `contacted` and `lost` count in `total` only. */
export const LeadStats = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  new: Type.Integer({ minimum: 0 }),
  qualified: Type.Integer({ minimum: 0 }),
  converted: Type.Integer({ minimum: 0 }),
});
export type LeadStats = Static<typeof LeadStats>;

/** 200 of POST /api/webhooks/leads, for a new lead and for a repeated one alike. */
export const InboundLeadReply = Type.Object({ ok: Type.Literal(true), lead_id: Type.String() });
export type InboundLeadReply = Static<typeof InboundLeadReply>;
