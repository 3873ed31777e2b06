import type { FastifyReply } from 'fastify';
import { currentTrace } from '../tracing/context.js';
import { currentWork, runInWork } from '../work-context.js';

/**
 * One deadline for all the MongoDB work of a request. The driver's `timeoutMS` bounds one
 * operation, but a request makes several in a row (a report open makes about ten, a coverage
 * request five), so with MongoDB slow or hanging part-way a request took a deadline per
 * operation: 3.4 s with MongoDB hung, 7-10 s with it 500 ms slower (bench:faults). Inside a
 * request, every operation's `timeoutMS` is instead what is left of the request's budget (when
 * shorter), counted from its arrival; one started after the budget is spent fails at once
 * (MongoOperationTimeoutError, a 503 with Retry-After like any MongoDB outage). The request's answer therefore comes within
 * the budget plus the work that is not MongoDB's.
 *
 * Work a request leaves running after it was answered (a publish it does not wait for, a timer it
 * started) carries its async context but not its deadline: the deadline ends with the answer, and
 * such work gets the per-operation `timeoutMS` as before.
 *
 * The deadline travels in the work context (work-context.ts) beside the trace; the kit enters
 * both for a request in one preHandler (app.ts).
 */
export interface Deadline {
  /** Epoch ms after which the request's MongoDB operations fail. */
  at: number;
  /** False once the request was answered (or the work it bounds has ended). */
  readonly open: boolean;
}

/** A request's deadline: open until its answer has been sent (Fastify's `reply.sent`). */
class AnswerDeadline implements Deadline {
  constructor(
    public at: number,
    private readonly reply: FastifyReply,
  ) {}

  get open(): boolean {
    return !this.reply.sent;
  }
}

/** The deadline of work done for several requests at once: open until that work ends. */
class WorkDeadline implements Deadline {
  open = true;
  constructor(public at: number) {}
}

/**
 * The `timeoutMS` an operation starting now gets: what is left of the request's deadline when
 * that is shorter than `perOperation`, else `perOperation`; 'passed' once the deadline has.
 */
export function operationTimeoutMs(perOperation: number | undefined, now = Date.now()): number | undefined | 'passed' {
  const deadline = currentWork()?.mongoDeadline;
  if (!deadline?.open) return perOperation;
  const left = deadline.at - now;
  if (left <= 0) return 'passed';
  return perOperation === undefined ? left : Math.min(perOperation, left);
}

/** A request's MongoDB deadline, as carried into work done on its behalf (currentMongoDeadline). */
export type MongoDeadline = Readonly<Deadline>;

/** The MongoDB deadline of the request this runs for, if any and not yet answered. */
export function currentMongoDeadline(): MongoDeadline | undefined {
  const deadline = currentWork()?.mongoDeadline;
  return deadline?.open ? deadline : undefined;
}

/**
 * Runs `fn` (work done for several requests at once, such as a group commit of their writes)
 * under the earliest of their deadlines, so none of them waits past its own; with none, under
 * no deadline at all (not the one of whichever request happened to start the work).
 */
export function withEarliestMongoDeadline<T>(deadlines: (MongoDeadline | undefined)[], fn: () => T): T {
  const open = deadlines.filter((d): d is MongoDeadline => d?.open === true);
  if (open.length === 0) return runInWork({ trace: currentTrace(), mongoDeadline: undefined }, fn);
  const deadline = new WorkDeadline(Math.min(...open.map((d) => d.at)));
  const result = runInWork({ trace: currentTrace(), mongoDeadline: deadline }, fn);
  // Ends with the work, as a request's ends with its answer: what it leaves running (events
  // published after the answers) gets the per-operation deadline.
  if (result instanceof Promise) {
    return result.finally(() => {
      deadline.open = false;
    }) as T;
  }
  deadline.open = false;
  return result;
}

/**
 * Runs `work` that is slow by design and uses no MongoDB (hashing a password: argon2 takes a
 * few hundred ms of the thread pool, and a burst of sign-ups queues behind it) with the request's
 * MongoDB deadline moved on by the time it took. The deadline bounds waiting for MongoDB; a
 * request that spent it queued for argon2 would otherwise answer 503 after doing the costly part.
 */
export async function outsideMongoDeadline<T>(work: () => Promise<T>): Promise<T> {
  const deadline = currentWork()?.mongoDeadline;
  const started = Date.now();
  try {
    return await work();
  } finally {
    if (deadline?.open) deadline.at += Date.now() - started;
  }
}

/** Runs `fn` with a MongoDB deadline `budgetMs` from now (tests). */
export function withMongoDeadline<T>(budgetMs: number, fn: () => T): T {
  return runInWork({ trace: currentTrace(), mongoDeadline: new WorkDeadline(Date.now() + budgetMs) }, fn);
}

/**
 * The MongoDB deadline of a request answered by `reply`: `budgetMs` after it arrived, as Fastify
 * counted it (`reply.elapsedTime`, from before the first onRequest hook, so reading the body
 * counts too), and open until the answer is sent. Made in the kit's preHandler (app.ts), which
 * enters it with the request's trace.
 */
export function requestMongoDeadline(reply: FastifyReply, budgetMs: number): Deadline {
  return new AnswerDeadline(Date.now() - reply.elapsedTime + budgetMs, reply);
}

/** The driver's error for an operation out of time; the kit answers it as any MongoDB outage (503). */
type TimeoutErrorClass = new (message: string) => Error;

/**
 * The one way an operation gets the request's deadline: its options, with `timeoutMS` (the
 * driver's public per-operation client-side timeout) set to what is left of the deadline when
 * shorter than `perOperation` (the collection's own setting). Options that carry their own
 * `timeoutMS` (an erasure that may run long) keep it; outside a request they are returned as
 * given. Once the deadline has passed this throws the driver's MongoOperationTimeoutError at
 * once, before anything is sent: a `timeoutMS` of 0 would mean no limit at all, and 1 ms may
 * still let a write through.
 */
export function deadlineOptions<O extends object>(
  options: O | undefined,
  perOperation: number | undefined,
  TimeoutError: TimeoutErrorClass,
): O | (O & { timeoutMS: number }) | undefined {
  if (options && 'timeoutMS' in options && options.timeoutMS !== undefined) return options;
  const timeoutMS = operationTimeoutMs(perOperation);
  if (timeoutMS === 'passed') throw new TimeoutError("the request's MongoDB deadline has passed");
  if (timeoutMS === undefined || timeoutMS === perOperation) return options;
  return { ...(options ?? ({} as O)), timeoutMS };
}

/**
 * Where each operation of the driver's Collection takes its options (its last parameter). The
 * operations a request makes; change streams (`watch`) and bulk builders are not bounded.
 */
const OPTIONS_AT: Record<string, number> = {
  insertOne: 1,
  insertMany: 1,
  bulkWrite: 1,
  updateOne: 2,
  updateMany: 2,
  replaceOne: 2,
  deleteOne: 1,
  deleteMany: 1,
  findOne: 1,
  find: 1,
  countDocuments: 1,
  estimatedDocumentCount: 0,
  distinct: 2,
  findOneAndDelete: 1,
  findOneAndReplace: 2,
  findOneAndUpdate: 2,
  aggregate: 1,
  createIndex: 1,
  createIndexes: 1,
  dropIndex: 1,
  listIndexes: 0,
  indexes: 0,
  drop: 0,
};
/** Operations that answer with a cursor at once (their commands run as it is read). */
const CURSORS = new Set(['find', 'aggregate', 'listIndexes']);

interface TimedCollection {
  readonly timeoutMS: number | undefined;
}

/**
 * The collection as seen by a service: each operation called with `deadlineOptions` of its own
 * options, through the driver's public API. A wrapper (a Proxy forwarding everything else to
 * the collection as it is), not a change to the driver: a driver upgrade that renamed an
 * operation leaves it with the per-operation `timeoutMS`, and packages/kit/test/mongo-hung.test.ts
 * fails.
 */
function boundCollection<C extends object>(collection: C, TimeoutError: TimeoutErrorClass): C {
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const at = typeof property === 'string' && typeof value === 'function' ? OPTIONS_AT[property] : undefined;
      if (at === undefined) return value;
      const cursor = CURSORS.has(property as string);
      return (...args: unknown[]) => {
        const call = () => {
          const withDeadline = [...args];
          while (withDeadline.length < at) withDeadline.push(undefined);
          const perOperation = (target as TimedCollection).timeoutMS;
          withDeadline[at] = deadlineOptions(args[at] as object | undefined, perOperation, TimeoutError);
          return (value as (...a: unknown[]) => unknown).apply(target, withDeadline);
        };
        if (cursor) return call();
        try {
          return call();
        } catch (err) {
          // A promise-returning operation fails as a rejection, as the driver's own would.
          return Promise.reject(err);
        }
      };
    },
  });
}

interface CollectionSource {
  collection(name: string, options?: object): object;
}

/**
 * A database whose collections run under the request's deadline (boundCollection); everything
 * else forwarded to the driver's database as it is. One per connection (mongo.ts).
 */
export function deadlineBoundDb<D extends CollectionSource>(db: D, TimeoutError: TimeoutErrorClass): D {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver);
      return (name: string, options?: object) => boundCollection(target.collection(name, options), TimeoutError);
    },
  });
}

interface DatabaseSource {
  db(name?: string, options?: object): CollectionSource;
  readonly options: { readonly dbName: string };
}

/**
 * The driver's client as handed to mongoose (its public `Connection#setClient`): every database
 * it gives is a deadlineBoundDb, so mongoose's models, whose collections come from that
 * database, run under the request's deadline as the driver-only services do, saves included
 * (mongoose passes a document's save no per-operation option of ours). Its default database
 * (the one mongoose asks for) is `dbName`, the service's: not the client's `dbName` option, which
 * would also move where credentials of the URL are checked. Everything else is the client
 * itself, its methods called on it.
 */
export function deadlineBoundClient<C extends DatabaseSource>(
  client: C,
  dbName: string,
  TimeoutError: TimeoutErrorClass,
): C {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'db')
        return (name?: string, options?: object) =>
          deadlineBoundDb(
            target.db(name === undefined || name === target.options.dbName ? dbName : name, options),
            TimeoutError,
          );
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
