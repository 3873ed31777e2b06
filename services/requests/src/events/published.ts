import {
  type ReportViewed,
  type RequestCovered,
  type RequestStatusChanged,
  type RequestSubmitted,
  Topics,
} from '@homereport/contracts';
import { type OutboxEntry, createEvent } from '@homereport/kit';

/**
 * The events this service publishes. Request events are keyed by the request id (one request's
 * events stay in order); report-viewed by the user id. Each is recorded in the outbox of the
 * document whose change it announces and published by the relay.
 */
/** Collections whose documents carry an outbox. */
export const OUTBOX_COLLECTIONS = ['requests', 'access_log'];

const meta = (key: string, correlationId?: string) => ({ source: 'requests', key, correlationId });

export const requestSubmitted = (data: RequestSubmitted, correlationId?: string): OutboxEntry<RequestSubmitted> =>
  createEvent(Topics.requestSubmitted, data, meta(data.request.id, correlationId));

export const requestStatusChanged = (
  data: RequestStatusChanged,
  correlationId?: string,
): OutboxEntry<RequestStatusChanged> =>
  createEvent(Topics.requestStatusChanged, data, meta(data.requestId, correlationId));

export const requestCovered = (data: RequestCovered, correlationId?: string): OutboxEntry<RequestCovered> =>
  createEvent(Topics.requestCovered, data, meta(data.request.id, correlationId));

export const reportViewed = (data: ReportViewed, correlationId?: string): OutboxEntry<ReportViewed> =>
  createEvent(Topics.reportViewed, data, meta(data.userId, correlationId));
