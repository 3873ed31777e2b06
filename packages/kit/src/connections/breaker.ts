import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis, Command as RedisCommand, RedisOptions } from 'ioredis';
import { unavailableDependency } from '../dependency-errors.js';
import type { Logger } from '../logger.js';
import { watchRedisCommand } from '../metrics/dependencies.js';
import { withTimeout } from '../readiness.js';
import type { MongoConnection } from './mongo.js';
import { loadIoredis } from './redis.js';

/**
 * Fail fast while a dependency is known to be down. Deadlines alone (MONGO_TIMEOUT_MS,
 * REDIS_TIMEOUT_MS) make every call to a hung server wait the whole deadline, so under load the
 * waiting calls pile up (sockets, pooled connections, memory) and every answer takes the full
 * deadline. After five failures within 3 s the breaker opens: calls fail at once with
 * CircuitOpenError (a 503 with Retry-After, like any unavailable dependency) and one probe a
 * second (PING) asks the server itself; its first answer closes the breaker, so service resumes
 * within a second of the server's return, with no restart and without risking user calls.
 *
 * Why not opossum (decision 013): it counts the outcomes of the one function it wraps and lets a
 * user's call through to test a half-open circuit. The MongoDB driver has no such function
 * (operations run inside the driver): there the driver's own `timeoutMS` is the fail-fast bound
 * while its public monitoring events feed the breaker's report (guardMongo). And a probe of our
 * own (PING) risks no user call. So the breaker here is fed outcomes from where each driver shows
 * them and probes on its own: about sixty lines with the same states.
 */
export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError';
  constructor(readonly dependency: 'mongo' | 'redis') {
    super(`${dependency} is down (circuit open); failing at once until it answers again`);
  }
}

export interface BreakerOptions {
  /** Failures within `windowMs` that open the breaker. */
  failures?: number;
  windowMs?: number;
  /** Pause between probes while open. */
  probeEveryMs?: number;
  /** Longest a probe may wait for its answer. */
  probeTimeoutMs?: number;
}

/** Calls made inside `bypass.run(true, …)` pass an open breaker: the probes. */
const bypass = new AsyncLocalStorage<boolean>();

export class DependencyBreaker {
  private recent: number[] = [];
  private openSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly failuresToOpen: number;
  private readonly windowMs: number;
  private readonly probeEveryMs: number;

  constructor(
    readonly dependency: 'mongo' | 'redis',
    private readonly probe: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly options: BreakerOptions = {},
  ) {
    // Five: a machine so busy that an odd call misses its deadline should not open it; a hung
    // server under any load fails five calls within a second or two.
    this.failuresToOpen = options.failures ?? 5;
    this.windowMs = options.windowMs ?? 3000;
    this.probeEveryMs = options.probeEveryMs ?? 1000;
  }

  get isOpen(): boolean {
    return this.openSince !== null;
  }

  /** Throws CircuitOpenError while open (unless called from a probe). */
  check(): void {
    if (this.openSince !== null && !bypass.getStore()) throw new CircuitOpenError(this.dependency);
  }

  /** A call failed because the dependency did not answer in time or could not be reached. */
  failure(now = Date.now()): void {
    if (this.openSince !== null || this.closed) return;
    this.recent = this.recent.filter((t) => now - t < this.windowMs);
    this.recent.push(now);
    if (this.recent.length >= this.failuresToOpen) this.open(now);
  }

  /** Stops probing (the connection is closing). */
  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private open(now: number): void {
    this.openSince = now;
    this.recent = [];
    this.logger.warn(
      { dependency: this.dependency },
      `${this.dependency} circuit open: calls fail at once until a probe answers`,
    );
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.timer = setTimeout(async () => {
      this.timer = null;
      try {
        await withTimeout(
          bypass.run(true, this.probe),
          this.options.probeTimeoutMs ?? 2000,
          `${this.dependency} probe timed out`,
        );
      } catch {
        this.scheduleProbe();
        return;
      }
      this.answered();
    }, this.probeEveryMs);
    this.timer.unref();
  }

  /** The dependency answered (a probe, or the driver's own check on a new connection): close. */
  answered(): void {
    if (this.openSince === null) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const downMs = Date.now() - this.openSince;
    this.openSince = null;
    this.logger.info({ dependency: this.dependency, downMs }, `${this.dependency} circuit closed: it answers again`);
  }
}

/** The ioredis client the kit makes: its commands watched and, when guarded, behind a breaker. */
export type WatchedRedis = Redis & {
  /** Set once, right after construction (guardRedis); null: watched only. */
  breaker: DependencyBreaker | null;
  /** A command past the breaker and the metrics: the breaker's own probe. */
  sendUnwatched(command: RedisCommand): unknown;
};

type WatchedRedisConstructor = new (url: string, options: RedisOptions) => WatchedRedis;
let WatchedRedisClass: WatchedRedisConstructor | undefined;

/**
 * An ioredis client whose every command (pipelines, transactions and the offline queue included:
 * ioredis sends each through `sendCommand`) is timed for the metrics and spans
 * (metrics/dependencies.ts) and, once `guardRedis` gave it a breaker, checked against it. A
 * subclass of ioredis' own client, so the client's method stays the client's: one settle handler
 * per command, since every signed-in request through the gateway sends one.
 */
export function createRedis(url: string, options: RedisOptions): WatchedRedis {
  if (!WatchedRedisClass) {
    // ioredis is loaded on first use, not at import (bench:memory): files never opens Redis.
    const { Redis: IoRedis } = loadIoredis();
    WatchedRedisClass = class extends IoRedis {
      breaker: DependencyBreaker | null = null;

      override sendCommand(command: RedisCommand, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
        const breaker = this.breaker;
        // While a new connection is set up (status "connect") ioredis sends its own commands (the
        // ready check's INFO, SELECT): refusing them would keep it from ever connecting again.
        if (breaker?.isOpen && this.status !== 'connect') {
          try {
            breaker.check();
          } catch (err) {
            command.reject(err as Error);
            return command.promise;
          }
        }
        const settle = watchRedisCommand(command.name);
        const result = super.sendCommand(command, stream);
        if (settle || breaker) {
          command.promise.then(
            () => settle?.(),
            (err: unknown) => {
              settle?.(err);
              if (breaker && unavailableDependency(err) === 'redis') breaker.failure();
            },
          );
        }
        return result;
      }

      sendUnwatched(command: RedisCommand): unknown {
        return super.sendCommand(command);
      }
    } as unknown as WatchedRedisConstructor;
  }
  return new WatchedRedisClass(url, options);
}

/**
 * Puts a breaker in front of every command of a client made by `createRedis`. A reply of any
 * kind, a Redis error reply included, shows Redis is there; a timeout or a lost connection counts
 * as a failure. A connection left wedged (a network that drops packets) is not this breaker's
 * concern: the client's `socketTimeout` (connectRedis) drops it when a probe gets no byte back,
 * and the new connection's ready closes the breaker.
 */
export function guardRedis(redis: WatchedRedis, logger: Logger, options?: BreakerOptions): DependencyBreaker {
  // ioredis is loaded already (the connection passed in), so the require below is a cache hit.
  const { Command } = loadIoredis();
  const ping = () => {
    const command = new Command('ping', []);
    redis.sendUnwatched(command);
    return command.promise;
  };
  const breaker = new DependencyBreaker('redis', ping, logger, options);
  redis.breaker = breaker;
  // Ready means Redis answered the ready check on a new connection: no need to wait for a probe.
  redis.on('ready', () => breaker.answered());
  redis.once('end', () => breaker.stop());
  return breaker;
}

/**
 * Watches MongoDB through the driver's public monitoring events, emitted whatever the caller (a
 * request, the outbox relay, a consumer): a connection closed by an error (an operation that
 * timed out on it closes it), a checkout that timed out or could not connect, a failed
 * heartbeat. The breaker reports MongoDB down (readiness, /api/health, the log) and probes it.
 * It does not refuse calls itself: the driver's own settings already bound each one (`timeoutMS`
 * covers server selection, checkout and the reply), so a call to a MongoDB known to be down fails
 * within MONGO_TIMEOUT_MS with an error the service answers 503 for, and refusing earlier would
 * need a hook into the driver's internals.
 */
export function guardMongo(conn: MongoConnection, logger: Logger, options?: BreakerOptions): DependencyBreaker {
  const breaker = new DependencyBreaker(
    'mongo',
    async () => {
      const db = conn.db;
      if (!db) throw new Error('not connected');
      await db.command({ ping: 1 });
    },
    logger,
    options,
  );
  const client = conn.getClient();
  client.on('connectionClosed', (event: { reason?: string }) => {
    if (event.reason === 'error') breaker.failure();
  });
  client.on('connectionCheckOutFailed', (event: { reason?: string }) => {
    if (event.reason === 'timeout' || event.reason === 'connectionError') breaker.failure();
  });
  client.on('serverHeartbeatFailed', () => breaker.failure());
  conn.once('close', () => breaker.stop());
  return breaker;
}
