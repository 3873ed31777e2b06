import type { Redis } from '@homereport/kit';
import { LRUCache } from 'lru-cache';

interface Tally {
  /** The count Redis last reported for this window: every replica's hits it had been told of. */
  shared: number;
  /** Hits counted here and not yet added in Redis. */
  pending: number;
  /** Hits on their way to Redis in the flush under way. */
  sending: number;
  windowEnds: number;
}

export interface SharedRateLimitOptions {
  redis: Redis;
  prefix: string;
  windowSeconds: number;
  perWindow: number;
  /** How often this replica adds its hits in Redis and learns the other replicas'. */
  flushMs?: number;
  /**
   * Clients tracked here at most; the least recently seen is forgotten first. Its hits already
   * sent stay counted in Redis, and a client seen again starts from Redis's count at the next flush.
   */
  maxClients?: number;
}

/**
 * A per-client budget shared by every gateway replica, without a Redis round trip per request.
 *
 * Each replica counts hits in memory and adds them to the client's Redis counter (INCRBY, with a
 * window that opens with the first hit: EXPIRE NX) in one pipeline every `flushMs`, reading back
 * the total. A request is judged against the last total plus this replica's hits since. With one
 * replica the limit is exact; with N, a client can exceed it by what the other replicas let
 * through in one flush interval (100 ms by default), a bound a per-minute budget can live with.
 * When Redis is away each replica still limits on its own count.
 *
 * The per-request Redis call this replaces cost the gateway about a third of its throughput on
 * cached public answers (measured with bench:requests). Memory is bounded by `maxClients`.
 */
export class SharedRateLimit {
  private readonly tallies: LRUCache<string, Tally>;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;

  constructor(private readonly options: SharedRateLimitOptions) {
    this.tallies = new LRUCache({ max: options.maxClients ?? 100_000 });
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 100);
    this.timer.unref();
  }

  /** Counts one hit for `client`; returns the seconds to wait when over budget, else null. */
  hit(client: string, now = Date.now()): number | null {
    if (this.options.perWindow <= 0) return null;
    let tally = this.tallies.get(client);
    if (!tally || tally.windowEnds <= now) {
      tally = { shared: 0, pending: 0, sending: 0, windowEnds: now + this.options.windowSeconds * 1000 };
      this.tallies.set(client, tally);
    }
    tally.pending += 1;
    if (tally.shared + tally.sending + tally.pending <= this.options.perWindow) return null;
    return Math.max(1, Math.ceil((tally.windowEnds - now) / 1000));
  }

  /** Adds the hits counted here to Redis and reads back the totals; one at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  close(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }

  private async send(): Promise<void> {
    const now = Date.now();
    const batch: [string, Tally][] = [];
    const ended: string[] = [];
    for (const [client, tally] of this.tallies.entries()) {
      if (tally.pending > 0) batch.push([client, tally]);
      else if (tally.windowEnds <= now && tally.sending === 0) ended.push(client);
    }
    for (const client of ended) this.tallies.delete(client);
    if (batch.length === 0) return;
    const { redis, prefix, windowSeconds } = this.options;
    const pipeline = redis.pipeline();
    for (const [client, tally] of batch) {
      const key = prefix + client;
      tally.sending = tally.pending;
      tally.pending = 0;
      pipeline.incrby(key, tally.sending).expire(key, windowSeconds, 'NX').pttl(key);
    }
    let replies: [Error | null, unknown][] | null = null;
    try {
      replies = await pipeline.exec();
    } catch {
      // Redis away: the hits stay counted here and go with the next flush.
    }
    const at = Date.now();
    batch.forEach(([client, tally], i) => {
      const count = replies?.[i * 3];
      const ttl = replies?.[i * 3 + 2];
      if (!count || count[0] || !ttl || ttl[0]) {
        tally.pending += tally.sending;
        tally.sending = 0;
        return;
      }
      tally.sending = 0;
      // A tally replaced meanwhile (its window ended here) learns nothing from the old one.
      if (this.tallies.peek(client) !== tally) return;
      tally.shared = Number(count[1]);
      const ttlMs = Number(ttl[1]);
      if (ttlMs > 0) tally.windowEnds = at + ttlMs;
    });
  }
}
