import { type Static, Type } from '@sinclair/typebox';
import { RequestStatus } from '../api/requests.js';

/**
 * Payloads of the events the requests service publishes (architecture.md, "Event catalogue").
 * Each is keyed by the request id, so one request's events stay in order on their topic.
 */

/** Who asked for a request, when they were signed in; null for an anonymous visitor. */
export const Requester = Type.Union([Type.Object({ userId: Type.String(), email: Type.String() }), Type.Null()]);
export type Requester = Static<typeof Requester>;

/** What an email about a request needs to say; never file links. */
export const RequestSummary = Type.Object({
  id: Type.String(),
  address: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  notes: Type.Union([Type.String(), Type.Null()]),
  status: RequestStatus,
  created_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type RequestSummary = Static<typeof RequestSummary>;

/** request-submitted: a visitor asked for a property to be covered. */
export const RequestSubmitted = Type.Object({ request: RequestSummary, requester: Requester });
export type RequestSubmitted = Static<typeof RequestSubmitted>;

/** request-status-changed: an admin moved a request from one status to another. */
export const RequestStatusChanged = Type.Object({
  requestId: Type.String(),
  from: RequestStatus,
  to: RequestStatus,
  by: Type.Object({ userId: Type.String(), email: Type.String() }),
  at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type RequestStatusChanged = Static<typeof RequestStatusChanged>;

/** request-covered: the report of a request is ready (published beside request-status-changed). */
export const RequestCovered = Type.Object({
  request: RequestSummary,
  requester: Requester,
  completed_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type RequestCovered = Static<typeof RequestCovered>;

/** report-viewed: a signed-in user opened a report; `charged` says whether it cost a credit. */
export const ReportViewed = Type.Object({
  viewId: Type.String(),
  userId: Type.String(),
  requestId: Type.String(),
  charged: Type.Boolean(),
  viewedAt: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type ReportViewed = Static<typeof ReportViewed>;
