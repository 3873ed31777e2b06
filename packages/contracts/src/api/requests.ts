import { type Static, Type } from '@sinclair/typebox';

/**
 * HTTP shapes of coverage requests (api.md, "Coverage requests and reports"). The requests
 * service validates with these schemas and the web app takes its types from them, so a field
 * is named once.
 */

export const ADDRESS_MAX_LENGTH = 300;
export const URL_MAX_LENGTH = 2048;
export const NOTES_MAX_LENGTH = 2000;

/** A request moves between these freely (admins may set any from any). */
export const RequestStatus = Type.Union([
  Type.Literal('requested'),
  Type.Literal('in_progress'),
  Type.Literal('covered'),
]);
export type RequestStatus = Static<typeof RequestStatus>;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** ISO 8601 timestamp in UTC. */
const Timestamp = Type.String({ description: 'ISO 8601 timestamp in UTC' });

/**
 * Headline figures of a report (api.md "Report summary"), entered by staff on the admin request
 * page: whole numbers except `baths` (a multiple of 0.5). Every field may be left out.
 */
export const SUMMARY_HEADLINE_MAX_LENGTH = 280;
export const SUMMARY_YEAR_MIN = 1700;
export const SUMMARY_MONEY_MAX = 100_000_000;
export const ReportSummary = Type.Object(
  {
    estimated_value: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SUMMARY_MONEY_MAX, description: 'U.S. dollars' }),
    ),
    monthly_rent: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SUMMARY_MONEY_MAX, description: 'U.S. dollars a month' }),
    ),
    beds: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
    baths: Type.Optional(Type.Number({ minimum: 0, maximum: 50, multipleOf: 0.5 })),
    sqft: Type.Optional(Type.Integer({ minimum: 100, maximum: 100_000, description: 'square feet' })),
    year_built: Type.Optional(Type.Integer({ minimum: SUMMARY_YEAR_MIN, description: 'at most next year' })),
    headline: Type.Optional(Type.String({ maxLength: SUMMARY_HEADLINE_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type ReportSummary = Static<typeof ReportSummary>;

/**
 * A request as read. The four `*_path` fields are null or a signed gateway link the browser
 * opens in a new tab without an Authorization header; lists that are public never carry links.
 */
export const CoverageRequest = Type.Object({
  id: Type.String(),
  address: Type.String(),
  url: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  status: RequestStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  report_path: Nullable(Type.String()),
  strategy_path: Nullable(Type.String()),
  school_report_path: Nullable(Type.String()),
  neighborhood_report_path: Nullable(Type.String()),
  /** The property (normalised address) the request belongs to: the same for every request of it. */
  property_id: Type.String(),
  /** How many requests the property has had: in the covered list and the admin's lists and detail. */
  requests_count: Type.Optional(Type.Integer({ minimum: 1 })),
  /** How many people made them (each anonymous request counts as one): in the admin's lists and detail. */
  requesters_count: Type.Optional(Type.Integer({ minimum: 1 })),
  /** The report's headline figures: null until staff enter some (public: in the covered list too). */
  summary: Type.Optional(Type.Union([ReportSummary, Type.Null()])),
  /** The property's ZIP5, or null when its address has none: in the covered list. */
  zip_code: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CoverageRequest = Static<typeof CoverageRequest>;

/** PUT /api/admin/requests/:id/summary: the request as the admin reads it, with the property's new figures. */
export const ReportSummaryReply = Type.Object({ request: CoverageRequest });
export type ReportSummaryReply = Static<typeof ReportSummaryReply>;

/**
 * POST /api/requests. The service trims the address and refuses a blank one; `url`, when
 * present and not empty, must be an http(s) link. Empty strings mean "not given".
 */
export const CreateRequestBody = Type.Object(
  {
    address: Type.String({ minLength: 1, maxLength: ADDRESS_MAX_LENGTH }),
    url: Type.Optional(
      Type.String({ maxLength: URL_MAX_LENGTH, pattern: '^\\s*([Hh][Tt][Tt][Pp][Ss]?://\\S+)?\\s*$' }),
    ),
    notes: Type.Optional(Type.String({ maxLength: NOTES_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type CreateRequestBody = Static<typeof CreateRequestBody>;

/**
 * POST /api/requests: 201 with the new request; or 200 with the caller's own earlier request for the
 * same property (made in the last 30 days) and `duplicate_of` its id, when nothing new was stored.
 */
export const CreateRequestReply = Type.Object({
  request: CoverageRequest,
  duplicate_of: Type.Optional(Type.String()),
});
export type CreateRequestReply = Static<typeof CreateRequestReply>;

/**
 * GET /api/requests/covered: one entry per covered property (the request through which it was
 * covered, with `requests_count`), most recently covered first, no file links.
 * At most `limit` (default and maximum 100) per page; `next_cursor`, when not null, asks for the
 * next page (`?cursor=<next_cursor>`).
 */
export const CoveredRequestsReply = Type.Object({
  properties: Type.Array(CoverageRequest),
  next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CoveredRequestsReply = Static<typeof CoveredRequestsReply>;

/** Query of GET /api/requests/covered. */
export const CoveredRequestsQuery = Type.Object({
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'Words of the address (street, city, state or ZIP), any case' }),
  ),
  sort: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('city')], { description: 'default newest' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'default 24 with q, sort or zip, else 100' }),
  ),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'the next_cursor of the previous page' })),
  /** Only the properties whose normalised address has this ZIP code (kit's app.ts words a bad one from the description). */
  zip: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', description: 'five digits, for example 78701' })),
});
export type CoveredRequestsQuery = Static<typeof CoveredRequestsQuery>;

/** GET /api/requests/mine: the caller's own requests, newest first, without file links. */
export const MyRequestsReply = Type.Object({ requests: Type.Array(CoverageRequest) });
export type MyRequestsReply = Static<typeof MyRequestsReply>;

/**
 * What a request id can look like (ids are ObjectIds; letters, digits, `_` and `-` up to 64): a
 * path segment that is not one names no request, and, unchecked, could name a storage key
 * elsewhere (`..`, an encoded `/` or NUL). Checked where an id would reach storage.
 */
export const REQUEST_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** `:id` of every /requests/:id path. */
export const RequestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type RequestIdParams = Static<typeof RequestIdParams>;
