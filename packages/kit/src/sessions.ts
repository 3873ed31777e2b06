import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Role } from './identity.js';

/**
 * Opaque session tokens kept in Redis. The token itself is never stored: the key is its SHA-256,
 * so a Redis dump does not hand out sessions. The auth service creates and revokes sessions;
 * the gateway resolves them once per request. Expiry slides on every use.
 */
export interface Session {
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

const sessionKey = (hash: string) => `session:${hash}`;
const userSessionsKey = (userId: string) => `user-sessions:${userId}`;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds = SESSION_TTL_SECONDS,
  ) {}

  async create(user: { userId: string; email: string; role: Role }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const hash = hashToken(token);
    const session: Session = { ...user, createdAt: new Date().toISOString() };
    await this.redis
      .multi()
      .set(sessionKey(hash), JSON.stringify(session), 'EX', this.ttlSeconds)
      .sadd(userSessionsKey(user.userId), hash)
      .expire(userSessionsKey(user.userId), this.ttlSeconds)
      .exec();
    return token;
  }

  /** The session behind a token, refreshing its expiry; null when unknown, expired or revoked. */
  async resolve(token: string): Promise<Session | null> {
    if (!token || token.length > 200) return null;
    const raw = await this.redis.getex(sessionKey(hashToken(token)), 'EX', this.ttlSeconds);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as Session;
    } catch {
      return null;
    }
  }

  async revoke(token: string): Promise<void> {
    const hash = hashToken(token);
    const raw = await this.redis.get(sessionKey(hash));
    await this.redis.del(sessionKey(hash));
    if (raw) await this.redis.srem(userSessionsKey((JSON.parse(raw) as Session).userId), hash);
  }

  /** Ends every session of a user at once (password reset, role change). */
  async revokeAll(userId: string): Promise<number> {
    const hashes = await this.redis.smembers(userSessionsKey(userId));
    const pipeline = this.redis.multi();
    for (const h of hashes) pipeline.del(sessionKey(h));
    pipeline.del(userSessionsKey(userId));
    await pipeline.exec();
    return hashes.length;
  }
}
