import { type LeadReceived, Topics, kafkaTopicsOf } from '@homereport/contracts';
import { type OutboxEntry, createEvent } from '@homereport/kit';

/**
 * The one event this service publishes: lead-received, keyed by the lead's id. It is stored in
 * the new lead document (`event`) by the same insert that stores the lead, and the kit's relay
 * publishes it (one marker per batch of arrivals), so a lead stored while Kafka is away is
 * announced when Kafka returns.
 */
export const PUBLISHED_TOPICS = kafkaTopicsOf('leads');

/** Collections whose documents carry an outbox array (leads stored by older versions). */
export const OUTBOX_COLLECTIONS = ['leads'];

/** Arrivals are written in groups: their events are announced by one marker per batch. */
export const LEAD_EVENT_BATCHES = { collection: 'leads', markers: 'lead_event_batches' };

export const leadReceived = (data: LeadReceived, correlationId?: string): OutboxEntry<LeadReceived> =>
  createEvent(Topics.leadReceived, data, { source: 'leads', key: data.id, correlationId });
