import { Type } from '@sinclair/typebox';

/**
 * What ad platforms post to POST /api/webhooks/leads, for the OpenAPI document. The route does
 * not validate with it: the domain (readInboundLead) reads both shapes leniently, on purpose (ids
 * as numbers or digit strings, unknown fields kept in the raw copy), and names the missing
 * fields in its own 400. These schemas say what a platform should send; the examples are the two
 * bodies the integration tests post.
 */

/** Ids arrive as JSON numbers (Google's int64 ids) or strings. */
const Id = (description: string) => Type.Union([Type.String(), Type.Integer()], { description });

export const GenericLeadPayload = Type.Object(
  {
    lead_id: Id('The platform’s id of the lead: a second post with the same id is stored once.'),
    first_name: Type.Optional(Type.String()),
    last_name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String({ description: 'An email or a phone number is required.' })),
    phone: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    campaign_id: Type.Optional(Id('The ad campaign.')),
    ad_group_id: Type.Optional(Id('The ad group.')),
  },
  { title: 'Generic lead', description: 'Any platform; the key in the `x-webhook-key` header.' },
);

export const GoogleAdsLeadPayload = Type.Object(
  {
    lead_id: Type.String(),
    user_column_data: Type.Array(
      Type.Object({
        column_id: Type.String({ description: 'FULL_NAME, FIRST_NAME, LAST_NAME, EMAIL, PHONE_NUMBER, ...' }),
        column_name: Type.Optional(Type.String()),
        string_value: Type.String(),
      }),
    ),
    google_key: Type.String({ description: 'The webhook key (instead of the header).' }),
    api_version: Type.Optional(Type.String()),
    form_id: Type.Optional(Id('The lead form.')),
    campaign_id: Type.Optional(Id('The campaign.')),
    adgroup_id: Type.Optional(Id('The ad group.')),
    creative_id: Type.Optional(Id('The ad.')),
    gcl_id: Type.Optional(Type.String()),
    is_test: Type.Optional(Type.Boolean({ description: 'True for Google’s "send test data".' })),
  },
  { title: 'Google Ads lead form', description: 'Google Ads’ lead form webhook; the key in `google_key`.' },
);

export const InboundLeadPayload = Type.Union([GenericLeadPayload, GoogleAdsLeadPayload], {
  examples: [
    {
      lead_id: 'lead-20260114-0042',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 512 555 0142',
      campaign_id: 'spring-buyers',
      ad_group_id: 'austin-78701',
    },
    {
      lead_id: 'TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ-abcdefghijklmnopqrstuvwxyz-0123456789-AaBbCcDdEe',
      user_column_data: [
        { column_name: 'Full Name', string_value: 'Grace Hopper', column_id: 'FULL_NAME' },
        { column_name: 'User Phone', string_value: '1-650-555-0123', column_id: 'PHONE_NUMBER' },
        { column_name: 'User Email', string_value: 'grace@example.com', column_id: 'EMAIL' },
      ],
      api_version: '1.0',
      form_id: 40000000000,
      campaign_id: 12345678901,
      adgroup_id: 20000000000,
      creative_id: 30000000000,
      google_key: '<the webhook key>',
      gcl_id: 'TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ-abcdefghijklmnopqrstuvwxyz-0123456789-AaBbCcDdEe',
      is_test: true,
    },
  ],
});

/**
 * The route's validator for its body: none. The schema above is for the document; the domain
 * reads the body (see the comment at the top). Params, query and headers have no schema there.
 */
export const documentedOnly = () => () => true;
