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

/**
 * A request becomes covered for the first time once: its request-covered event has an id of its
 * own (not a random one), so two writers racing to cover it (an admin's cascade and the consumer
 * finishing it) record the same event, and consumers, which stop repeated ids, act on it once.
 */
export const requestCovered = (data: RequestCovered, correlationId?: string): OutboxEntry<RequestCovered> => ({
  ...createEvent(Topics.requestCovered, data, meta(data.request.id, correlationId)),
  id: `request-covered:${data.request.id}`,
});

export const reportViewed = (data: ReportViewed, correlationId?: string): OutboxEntry<ReportViewed> =>
  createEvent(Topics.reportViewed, data, meta(data.userId, correlationId));
