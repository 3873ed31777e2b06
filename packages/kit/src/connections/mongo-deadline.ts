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

interface HasTimeoutMS {
  readonly timeoutMS: number | undefined;
}

interface Driver {
  Collection: { prototype: HasTimeoutMS };
  MongoOperationTimeoutError: new (message: string) => Error;
}

const bounded = new WeakSet<object>();

/**
 * Makes the driver's collections give their operations the request's remaining time. The driver
 * resolves an operation's `timeoutMS` as the operation's own option, else its collection's
 * (`Collection#timeoutMS`, the client's setting), when the operation starts: wrapping that public
 * getter reaches every operation, made through mongoose or the driver, without passing an option
 * at each of hundreds of calls. An operation given its own `timeoutMS` (an erasure that may run
 * long) keeps it. An operation started after the deadline fails at once with the driver's own
 * MongoOperationTimeoutError (a `timeoutMS` of 0 would mean none, and 1 ms may still let a write
 * through), so it is answered like any other MongoDB timeout. Once per process.
 */
export function boundCollectionsByRequestDeadline({ Collection, MongoOperationTimeoutError }: Driver): void {
  if (bounded.has(Collection.prototype)) return;
  const own = Object.getOwnPropertyDescriptor(Collection.prototype, 'timeoutMS');
  const get = own?.get;
  if (!get) throw new Error('the MongoDB driver has no Collection#timeoutMS getter; see mongo-deadline.ts');
  Object.defineProperty(Collection.prototype, 'timeoutMS', {
    ...own,
    get(this: HasTimeoutMS) {
      const timeoutMS = operationTimeoutMs(get.call(this) as number | undefined);
      if (timeoutMS === 'passed') throw new MongoOperationTimeoutError("the request's MongoDB deadline has passed");
      return timeoutMS;
    },
  });
  bounded.add(Collection.prototype);
}
