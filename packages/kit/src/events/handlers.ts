import type { Logger } from '../logger.js';
import type { EventEnvelope } from './envelope.js';

/**
 * Handles several events of one topic at once (all or none: a throw fails every one of them). The
 * consumer hands it the events of a fetched batch that it claimed together, at most
 * MAX_EVENTS_PER_CALL per call; a failing call is not retried as a whole: its events are then
 * handled one at a time (each a call with one event), so one bad event is retried and
 * dead-lettered on its own while the others go through.
 */
export type BatchEventHandler = (events: EventEnvelope[], log: Logger) => Promise<void>;

export type EventHandler = (event: EventEnvelope, log: Logger) => Promise<void>;

/** An EventHandler that the consumer may also call with several events at once. */
export interface BatchingEventHandler extends EventHandler {
  batch: BatchEventHandler;
}

/** Most events one BatchEventHandler call receives. */
export const MAX_EVENTS_PER_CALL = 200;

/**
 * For a topic whose events are cheaper handled together (one digest email for a burst of leads
 * instead of one each): the consumer claims a fetched batch's events in one write and passes them
 * in one call. Called with one event, it is an ordinary EventHandler.
 */
export function batchHandler(batch: BatchEventHandler): BatchingEventHandler {
  return Object.assign((event: EventEnvelope, log: Logger) => batch([event], log), { batch });
}

export const isBatching = (handler: EventHandler | undefined): handler is BatchingEventHandler =>
  typeof (handler as Partial<BatchingEventHandler> | undefined)?.batch === 'function';

/** How many messages of a fetched batch go to one call: a batching handler's share, else one. */
export const messagesPerCall = (handler: EventHandler | undefined) => (isBatching(handler) ? MAX_EVENTS_PER_CALL : 1);
