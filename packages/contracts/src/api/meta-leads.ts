import { type Static, Type } from '@sinclair/typebox';

/**
 * Meta (Facebook) Lead Ads webhook (api.md "Beyond the spec"). The shapes are Meta's, so they
 * allow fields Meta may add later: a delivery refused for an unknown field would be sent again
 * and again and its leads lost, while the signature already proves who sent it.
 */

const MAX_ID = 100;

/** Meta sends ids as strings; a number is taken too (exact digits kept, see the leads service's json-body). */
const MetaId = Type.Union([Type.String({ minLength: 1, maxLength: MAX_ID }), Type.Integer()]);

/** GET /api/webhooks/meta: the subscription handshake Meta sends when the webhook is set up. */
export const MetaHandshakeQuery = Type.Object(
  {
    'hub.mode': Type.Optional(Type.String({ maxLength: 50 })),
    'hub.verify_token': Type.Optional(Type.String({ maxLength: 200 })),
    'hub.challenge': Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);
export type MetaHandshakeQuery = Static<typeof MetaHandshakeQuery>;

/** One change of a page: a new lead when `field` is `leadgen` (other fields are ignored). */
export const MetaLeadgenValue = Type.Object(
  {
    leadgen_id: Type.Optional(MetaId),
    form_id: Type.Optional(MetaId),
    ad_id: Type.Optional(MetaId),
    adgroup_id: Type.Optional(MetaId),
    page_id: Type.Optional(MetaId),
    created_time: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 50 })])),
  },
  { additionalProperties: true },
);
export type MetaLeadgenValue = Static<typeof MetaLeadgenValue>;

export const MetaChange = Type.Object(
  { field: Type.String({ maxLength: 100 }), value: Type.Optional(MetaLeadgenValue) },
  { additionalProperties: true },
);
export type MetaChange = Static<typeof MetaChange>;

/** POST /api/webhooks/meta: Meta's page change notification (`object: "page"`). */
export const MetaWebhookBody = Type.Object(
  {
    object: Type.String({ maxLength: 50 }),
    entry: Type.Array(
      Type.Object(
        {
          id: Type.Optional(MetaId),
          time: Type.Optional(Type.Integer()),
          changes: Type.Optional(Type.Array(MetaChange, { maxItems: 1000 })),
        },
        { additionalProperties: true },
      ),
      { maxItems: 1000 },
    ),
  },
  {
    additionalProperties: true,
    examples: [
      {
        object: 'page',
        entry: [
          {
            id: '153125381133',
            time: 1438292065,
            changes: [
              {
                field: 'leadgen',
                value: {
                  leadgen_id: '123123123123',
                  page_id: '153125381133',
                  form_id: '567567567567',
                  adgroup_id: '345345345345',
                  ad_id: '234234234234',
                  created_time: 1438292065,
                },
              },
            ],
          },
        ],
      },
    ],
  },
);
export type MetaWebhookBody = Static<typeof MetaWebhookBody>;

/** 200 of POST /api/webhooks/meta: every lead of the delivery is stored (or was already, or is gone at Meta). */
export const MetaWebhookReply = Type.Object({ ok: Type.Literal(true) });
export type MetaWebhookReply = Static<typeof MetaWebhookReply>;
