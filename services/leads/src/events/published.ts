import { type LeadReceived, Topics, kafkaTopicsOf } from '@homereport/contracts';
import { type OutboxEntry, createEvent } from '@homereport/kit';

/**
 * The one event this service publishes: lead-received, keyed by the lead's id. It is recorded in
 * the new lead document's outbox in the same insert that stores the lead, and the relay publishes
 * it, so a lead stored while Kafka is away is announced when Kafka returns.
 */
export const PUBLISHED_TOPICS = kafkaTopicsOf('leads');

/** Collections whose documents carry an outbox. */
export const OUTBOX_COLLECTIONS = ['leads'];

export const leadReceived = (data: LeadReceived, correlationId?: string): OutboxEntry<LeadReceived> =>
  createEvent(Topics.leadReceived, data, { source: 'leads', key: data.id, correlationId });
