import { hash as digest, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Role } from './identity.js';

/**
 * Opaque session tokens kept in Redis. The token itself is never stored: the key is its SHA-256,
 * so a Redis dump does not hand out sessions. The auth service creates and revokes sessions;
 * the gateway resolves them once per request.
 *
 * A session ends after `idleSeconds` without use (the expiry slides on every use) and in any
 * case `absoluteSeconds` after it started. Each user's session hashes are also kept in a set so
 * a password reset can end them all; that set never expires before the last session in it
 * could (its expiry is pushed to the newest session's absolute end), so `revokeAll` always
 * finds every live session.
 */
export interface Session {
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
  /** When the session ends however often it is used (ISO 8601). Absent on sessions from before it existed. */
  expiresAt?: string;
  /**
   * This session's own idle limit, when it differs from the store's (admin sessions are shorter).
   * Kept in the session so whoever resolves it (the gateway) applies it without knowing roles' settings.
   */
  idleSeconds?: number;
}

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 60 * 60;

export interface SessionLifetimes {
  /** Ends after this long without use. */
  idleSeconds: number;
  /** Ends this long after sign-in, used or not. */
  absoluteSeconds: number;
}

/**
 * GET and slide: the session's idle expiry restarts at its own idle limit (`idleSeconds`, kept
 * in the session) or the store's (ARGV[1], ms). On an unknown key: nil, nothing done.
 */
const SLIDE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local idle = tonumber(ARGV[1])
local ok, session = pcall(cjson.decode, raw)
if ok and type(session) == 'table' and type(session.idleSeconds) == 'number' then idle = session.idleSeconds * 1000 end
redis.call('PEXPIRE', KEYS[1], math.max(1, math.floor(idle + 0.5)))
return raw
`;

/** A client that knows SLIDE as a command: ioredis sends it by its hash and the whole script only when Redis lacks it. */
type SlidingRedis = Redis & { slideSession(key: string, idleMs: number): Promise<string | null> };

/**
 * Where the hash of every ended session is announced, in the same MULTI that deletes it: gateways
 * that keep resolved sessions for a few seconds (gateway/src/session-cache.ts) drop it at once.
 */
export const SESSION_ENDED_CHANNEL = 'session-ended';

const sessionKey = (hash: string) => `session:${hash}`;
const userSessionsKey = (userId: string) => `user-sessions:${userId}`;
/** One-shot: no Hash object per call (every signed-in request through the gateway hashes its token). */
export const hashToken = (token: string) => digest('sha256', token, 'hex');

export class SessionStore {
  private readonly lifetimes: SessionLifetimes;
  private readonly redis: SlidingRedis;

  constructor(
    redis: Redis,
    lifetimes: Partial<SessionLifetimes> = {},
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('slideSession', { numberOfKeys: 1, lua: SLIDE });
    this.redis = redis as SlidingRedis;
    this.lifetimes = {
      idleSeconds: lifetimes.idleSeconds ?? SESSION_TTL_SECONDS,
      absoluteSeconds: lifetimes.absoluteSeconds ?? SESSION_ABSOLUTE_SECONDS,
    };
  }

  /** `lifetimes` overrides the store's for this one session (shorter admin sessions). */
  async create(
    user: { userId: string; email: string; role: Role },
    lifetimes: Partial<SessionLifetimes> = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const hash = hashToken(token);
    const startedAt = this.now();
    const absoluteSeconds = lifetimes.absoluteSeconds ?? this.lifetimes.absoluteSeconds;
    const session: Session = {
      ...user,
      createdAt: new Date(startedAt).toISOString(),
      expiresAt: new Date(startedAt + absoluteSeconds * 1000).toISOString(),
      ...(lifetimes.idleSeconds === undefined ? {} : { idleSeconds: lifetimes.idleSeconds }),
    };
    // Milliseconds, so a fractional idle limit (a test's) is kept as it is.
    const idleMs = Math.max(
      1,
      Math.round(Math.min(lifetimes.idleSeconds ?? this.lifetimes.idleSeconds, absoluteSeconds) * 1000),
    );
    const set = userSessionsKey(user.userId);
    const replies = await this.redis
      .multi()
      .set(sessionKey(hash), JSON.stringify(session), 'PX', idleMs)
      .sadd(set, hash)
      // The set lives as long as its longest-lived session: a set without expiry gets one, and
      // GT only ever moves it later (EXPIRE options need Redis 7, checked at start).
      .expire(set, Math.ceil(absoluteSeconds), 'NX')
      .expire(set, Math.ceil(absoluteSeconds), 'GT')
      .exec();
    for (const [err] of replies ?? []) if (err) throw err;
    return token;
  }

  /** The session behind a token, refreshing its idle expiry; null when unknown, expired or revoked. */
  async resolve(token: string): Promise<Session | null> {
    if (!token || token.length > 200) return null;
    return this.resolveHash(hashToken(token));
  }

  /** `resolve` for a caller that already holds the token's hash (the gateway keys its cache by it). */
  async resolveHash(hash: string): Promise<Session | null> {
    const key = sessionKey(hash);
    const raw = await this.getAndSlide(key);
    if (!raw) return null;
    let session: Session;
    try {
      session = JSON.parse(raw) as Session;
    } catch {
      return null;
    }
    const now = this.now();
    const end = session.expiresAt
      ? Date.parse(session.expiresAt)
      : Date.parse(session.createdAt) + this.lifetimes.absoluteSeconds * 1000;
    if (!(end > now)) {
      await this.redis.multi().del(key).publish(SESSION_ENDED_CHANNEL, hash).exec();
      return null;
    }
    // The slide never goes past the absolute end: in a session's last idle period, bring it back.
    // Not waited for (the session is valid either way, as its end was checked just above).
    const idleMs = (session.idleSeconds ?? this.lifetimes.idleSeconds) * 1000;
    if (end - now < idleMs) this.redis.pexpire(key, Math.max(1, Math.round(end - now))).catch(() => {});
    return session;
  }

  /**
   * The session's JSON, its idle expiry slid by its own idle limit (or the store's), in one
   * round trip: every signed-in request through the gateway resolves its session, and a GET then
   * a PEXPIRE cost the gateway a second Redis command each time.
   */
  private getAndSlide(key: string): Promise<string | null> {
    return this.redis.slideSession(key, this.lifetimes.idleSeconds * 1000);
  }

  /** Ends the session behind a token; false when the token names no live session. */
  async revoke(token: string): Promise<boolean> {
    const hash = hashToken(token);
    const raw = await this.redis.get(sessionKey(hash));
    const replies = await this.redis.multi().del(sessionKey(hash)).publish(SESSION_ENDED_CHANNEL, hash).exec();
    const deleted = Number(replies?.[0]?.[1] ?? 0);
    if (!raw) return deleted > 0;
    try {
      await this.redis.srem(userSessionsKey((JSON.parse(raw) as Session).userId), hash);
    } catch {
      // An unreadable session is gone all the same.
    }
    return deleted > 0;
  }

  /** Ends every session of a user at once (password reset, role change, deleted account). */
  async revokeAll(userId: string): Promise<number> {
    return this.revokeHashes(userId, await this.redis.smembers(userSessionsKey(userId)));
  }

  /**
   * Ends every session of a user but the one behind `keepToken` (a password changed from a
   * signed-in page: whoever else holds the old password is signed out, the person changing it is not).
   */
  async revokeOthers(userId: string, keepToken: string): Promise<number> {
    const keep = hashToken(keepToken);
    const hashes = await this.redis.smembers(userSessionsKey(userId));
    return this.revokeHashes(
      userId,
      hashes.filter((h) => h !== keep),
    );
  }

  private async revokeHashes(userId: string, hashes: string[]): Promise<number> {
    const pipeline = this.redis.multi();
    for (const h of hashes) pipeline.del(sessionKey(h)).publish(SESSION_ENDED_CHANNEL, h);
    pipeline.srem(userSessionsKey(userId), ...(hashes.length > 0 ? hashes : ['-']));
    await pipeline.exec();
    return hashes.length;
  }
}
