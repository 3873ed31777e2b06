import { AsyncLocalStorage } from 'node:async_hooks';
import type { Deadline } from './connections/mongo-deadline.js';
import type { TraceContext } from './tracing/context.js';

/**
 * What a piece of work carries across its awaits: its trace (tracing/context.ts), and inside a
 * request of a service with MongoDB, that request's MongoDB deadline (connections/mongo-deadline.ts).
 * One AsyncLocalStorage for both, entered once per request (the kit's preHandler, app.ts): Node 20
 * copies the value of every storage in use onto each promise and callback the process creates, so
 * a storage per concern costs on every await, not only where the concern is read.
 */
export interface WorkContext {
  readonly trace: TraceContext | undefined;
  readonly mongoDeadline: Deadline | undefined;
}

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `work` within `context`; each concern's own helpers (runInTrace, withMongoDeadline) keep the other's part. */
export const runInWork = <T>(context: WorkContext, work: () => T): T => storage.run(context, work);

export const currentWork = (): WorkContext | undefined => storage.getStore();

/**
 * Runs `work` in no work at all: for what a piece of work starts but outlives (a lazily opened
 * connection), whose lines and callbacks must not carry the request that happened to open it.
 */
export const outsideWork = <T>(work: () => T): T => storage.exit(work);
