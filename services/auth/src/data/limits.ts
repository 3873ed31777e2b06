import { createHash } from 'node:crypto';
import type { Redis } from '@homereport/kit';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Limits, MailKind } from '../domain/ports.js';

interface LimitSettings {
  signInWindowSeconds: number;
  signInMaxPerAccountAndClient: number;
  signInMaxPerClient: number;
  /** Attempts on one account from any address in the window before each further one waits. */
  signInSlowdownAfter: number;
  /** The first wait past that; each further attempt doubles it, up to the cap. */
  signInSlowdownBaseSeconds: number;
  signInSlowdownMaxSeconds: number;
  /** Admin codes (TOTP or recovery) tried on one account from any address before each further one waits. */
  codeSlowdownAfter: number;
  registerMaxPerClientPerHour: number;
  registerMaxPerAddressPerHour: number;
  mailCooldownSeconds: number;
  mailMaxPerAddressPerHour: number;
  mailMaxPerClientPerHour: number;
}

// Keys name a digest of the email, so Redis holds no addresses.
export const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/** Every auth limit counter lives under this prefix. */
const LIMIT_KEY_PREFIX = 'auth:limit';

const HOUR = 3600;

/**
 * The per-account ceiling across every client address, atomically: an attempt while the account
 * is over its count and its next slot is still ahead answers the milliseconds to wait; otherwise
 * it is counted, and one over the count books the next slot (base × 2^(over), capped), so of a
 * burst sent together only one goes through. The count lives until a window passes without an
 * attempt. Times are Redis's own clock, the same for every replica.
 * KEYS[1] the account's key; ARGV: threshold, base ms, cap ms, window seconds.
 */
const SLOWDOWN_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
local threshold = tonumber(ARGV[1])
if f >= threshold then
  local nextAt = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
  if now < nextAt then return nextAt - now end
  local wait = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ (f - threshold))
  redis.call('HSET', KEYS[1], 'n', now + wait)
end
redis.call('HINCRBY', KEYS[1], 'f', 1)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 0
`;

/** Key of an account's attempts from every address (tests read it to stand in for time passing). */
const slowdownKey = (email: string) => `${LIMIT_KEY_PREFIX}:signin-slowdown:${digest(email)}`;
/** Key of the admin codes tried on an account from every address. */
const codeSlowdownKey = (email: string) => `${LIMIT_KEY_PREFIX}:code-slowdown:${digest(email)}`;

/**
 * The auth service's limits, counted in Redis by rate-limiter-flexible (one Lua script per
 * count, so a burst of concurrent requests is counted exactly; shared by every replica). Each
 * limiter is a window that opens with the first hit.
 *
 * Sign-in attempts are counted *before* the password is checked, so twenty wrong passwords sent
 * at once meet the limit after the fifth; only a session issued forgets them (a right password
 * answered 403, such as an MFA admin's on the users' form, is no success: ASVS 2.2.1). The per-account count is
 * keyed by account and client address together: someone failing on purpose from their own
 * address cannot lock the owner out of their account.
 *
 * Across every address, an account gets `signInSlowdownAfter` attempts in the window; past that
 * each further attempt waits for a slot, doubling each time up to a cap (ASVS 2.2.1): a
 * distributed guesser is slowed to a handful of guesses an hour, while the owner, with the right
 * password from any address, waits at most the cap, never for good. A success forgets it.
 *
 * An admin's codes (TOTP or recovery, at sign-in and when turning TOTP on) are counted the same
 * way on their own, per account across every address, with a lower threshold: a password known
 * to an attacker must not make the six digits guessable from many addresses.
 */
export class RedisLimits implements Limits {
  private readonly signInAccount: RateLimiterRedis;
  private readonly signInClient: RateLimiterRedis;
  private readonly registerClient: RateLimiterRedis;
  private readonly registerAddress: RateLimiterRedis;
  private readonly mailCooldown: RateLimiterRedis | null;
  private readonly mailAddress: RateLimiterRedis;
  private readonly mailClient: RateLimiterRedis;

  constructor(
    private readonly redis: Redis,
    private readonly s: LimitSettings,
  ) {
    const limiter = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${LIMIT_KEY_PREFIX}:${name}`, points, duration });
    this.signInAccount = limiter('signin-account', s.signInMaxPerAccountAndClient, s.signInWindowSeconds);
    this.signInClient = limiter('signin-client', s.signInMaxPerClient, s.signInWindowSeconds);
    this.registerClient = limiter('register-client', s.registerMaxPerClientPerHour, HOUR);
    this.registerAddress = limiter('register-address', s.registerMaxPerAddressPerHour, HOUR);
    this.mailCooldown = s.mailCooldownSeconds > 0 ? limiter('mail-cooldown', 1, s.mailCooldownSeconds) : null;
    this.mailAddress = limiter('mail-address', s.mailMaxPerAddressPerHour, HOUR);
    this.mailClient = limiter('mail-client', s.mailMaxPerClientPerHour, HOUR);
  }

  async signInAttempt(email: string, client: string): Promise<number | null> {
    const accountKey = `${digest(email)}:${client}`;
    const overAccount = await take(this.signInAccount, accountKey);
    if (overAccount !== null) return overAccount;
    const overClient = await take(this.signInClient, client);
    if (overClient !== null) {
      // Not checked, so not counted against the account.
      await this.signInAccount.reward(accountKey, 1);
      return overClient;
    }
    const wait = await this.slowdown(slowdownKey(email), this.s.signInSlowdownAfter);
    if (wait !== null) {
      await Promise.all([this.signInAccount.reward(accountKey, 1), this.signInClient.reward(client, 1)]);
    }
    return wait;
  }

  async codeAttempt(email: string): Promise<number | null> {
    return this.slowdown(codeSlowdownKey(email), this.s.codeSlowdownAfter);
  }

  async signInSucceeded(email: string, client: string): Promise<void> {
    await Promise.all([
      this.signInAccount.delete(`${digest(email)}:${client}`),
      this.signInClient.reward(client, 1),
      this.redis.del(slowdownKey(email), codeSlowdownKey(email)),
    ]);
  }

  async codeSucceeded(email: string): Promise<void> {
    await this.redis.del(codeSlowdownKey(email));
  }

  /** One attempt against an account-wide slow-down (SLOWDOWN_SCRIPT): null, or the seconds to wait. */
  private async slowdown(key: string, threshold: number): Promise<number | null> {
    const waitMs = Number(
      await this.redis.eval(
        SLOWDOWN_SCRIPT,
        1,
        key,
        threshold,
        this.s.signInSlowdownBaseSeconds * 1000,
        this.s.signInSlowdownMaxSeconds * 1000,
        this.s.signInWindowSeconds,
      ),
    );
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : null;
  }

  async forgetAccount(email: string, client: string): Promise<void> {
    await Promise.all([this.signInAccount.delete(`${digest(email)}:${client}`), this.redis.del(slowdownKey(email))]);
  }

  async registration(email: string, client: string): Promise<number | null> {
    return (await take(this.registerClient, client)) ?? take(this.registerAddress, digest(email));
  }

  async mail(
    kind: MailKind,
    email: string,
    client: string,
  ): Promise<{ limit: 'client' | 'address'; wait: number } | null> {
    const byClient = await take(this.mailClient, client);
    if (byClient !== null) return { limit: 'client', wait: byClient };
    const key = `${kind}:${digest(email)}`;
    const cooling = this.mailCooldown ? await take(this.mailCooldown, key) : null;
    if (cooling !== null) return { limit: 'address', wait: cooling };
    const byAddress = await take(this.mailAddress, key);
    return byAddress === null ? null : { limit: 'address', wait: byAddress };
  }
}

/** Counts one hit; null when allowed, else the seconds until the window reopens. */
async function take(limiter: RateLimiterRedis, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}
