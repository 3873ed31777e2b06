import type { Logger } from '../logger.js';
import type { EventEnvelope } from './envelope.js';

/**
 * What an event's claim remembers of the effects its handler had, for a handler with more than
 * one effect per event (two emails) or per call (a digest email per 50 events). A retry, the
 * one-at-a-time pass after a failed call, an operator's replay of a dead letter and a consumer
 * that takes the claim over all skip the effects recorded before. The claim is the one place
 * that stops duplicates: a handler asks it rather than keeping a record of its own.
 */
export interface Effects {
  /** Whether `effect` was recorded for this event under its claim. */
  done(effect: string, eventId: string): boolean;
  /** Records `effect` as done for these events; call it as soon as the effect happened. */
  record(effect: string, eventIds: string[]): Promise<void>;
}

/** Effects kept in memory only: for calling handlers in unit tests. */
export function effectsInMemory(): Effects {
  const recorded = new Set<string>();
  return {
    done: (effect, eventId) => recorded.has(`${effect}:${eventId}`),
    async record(effect, eventIds) {
      for (const id of eventIds) recorded.add(`${effect}:${id}`);
    },
  };
}

export type EventHandler = (event: EventEnvelope, log: Logger, effects: Effects) => Promise<void>;

/**
 * Handles several events of one topic at once (all or none: a throw fails every one of them). The
 * consumer hands it the events of a fetched batch that it claimed together, at most
 * MAX_EVENTS_PER_CALL per call; a failing call is not retried as a whole: its events are then
 * handled one at a time (each a call with one event), so one bad event is retried and
 * dead-lettered on its own while the others go through, and effects recorded by the failed call
 * are not repeated.
 */
export type BatchEventHandler = (events: EventEnvelope[], log: Logger, effects: Effects) => Promise<void>;

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
  return Object.assign((event: EventEnvelope, log: Logger, effects: Effects) => batch([event], log, effects), {
    batch,
  });
}

export const isBatching = (handler: EventHandler | undefined): handler is BatchingEventHandler =>
  typeof (handler as Partial<BatchingEventHandler> | undefined)?.batch === 'function';

/** How many messages of a fetched batch go to one call: a batching handler's share, else one. */
export const messagesPerCall = (handler: EventHandler | undefined) => (isBatching(handler) ? MAX_EVENTS_PER_CALL : 1);
