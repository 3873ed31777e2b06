import { BaseConfig, EventSecretKeyConfig, KafkaConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

const positive = (fallback: number, description: string) =>
  Type.Integer({ default: fallback, minimum: 1, description });

/** The auth service's own database; shared by the service and the create-admin command. */
const AuthDatabase = {
  MONGO_DB: Type.String({ default: 'homereport_auth' }),
};

export const AuthConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  ...KafkaConfig,
  ...AuthDatabase,
  ...EventSecretKeyConfig,
  PORT: Type.Integer({ default: 4001, minimum: 1, maximum: 65535 }),
  /** Where the requests service listens: the account export asks it for the user's requests and views. */
  REQUESTS_URL: Type.String({ default: 'http://127.0.0.1:4002', pattern: '^https?://' }),
  REQUESTS_TIMEOUT_MS: Type.Integer({
    default: 3000,
    minimum: 100,
    description: 'Deadline of one internal call to the requests service (connect and whole answer); past it, 503.',
  }),
  ADMIN_SESSION_MAX_HOURS: Type.Number({
    default: 12,
    exclusiveMinimum: 0,
    description: 'An admin session ends this long after sign-in, used or not (user sessions: 30 days).',
  }),
  ADMIN_SESSION_IDLE_MINUTES: Type.Number({
    default: 30,
    exclusiveMinimum: 0,
    description: 'An admin session ends after this long without use (user sessions: 7 days); fractions allowed.',
  }),
  ADMIN_MFA_REQUIRED: Type.Boolean({
    default: false,
    description: 'Admins must sign in with a TOTP code; one without TOTP may only enrol until they have it.',
  }),
  VERIFICATION_TOKEN_TTL_SECONDS: positive(24 * 60 * 60, 'How long an email verification link works.'),
  RESET_TOKEN_TTL_SECONDS: positive(60 * 60, 'How long a password reset link works.'),
  LOGIN_FAILURE_WINDOW_SECONDS: positive(15 * 60, 'The window in which failed sign-ins are counted.'),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positive(
    5,
    'Sign-in attempts on one account from one client address in the window before 429 (a success forgets them).',
  ),
  LOGIN_SLOWDOWN_AFTER: positive(
    10,
    'Sign-in attempts on one account from all client addresses together in the window before each further one waits.',
  ),
  LOGIN_SLOWDOWN_BASE_SECONDS: positive(5, 'The first such wait; it doubles with each further attempt.'),
  LOGIN_SLOWDOWN_MAX_SECONDS: positive(300, 'The longest such wait: the owner is slowed, never locked out.'),
  MFA_CODE_SLOWDOWN_AFTER: positive(
    5,
    'Admin codes (TOTP or recovery) tried on one account from all client addresses together in the window before each further one waits (doubling as LOGIN_SLOWDOWN_*).',
  ),
  LOGIN_MAX_FAILURES_PER_IP: positive(20, 'Failed sign-in attempts from one client address in the window before 429.'),
  REGISTER_MAX_PER_CLIENT_PER_HOUR: positive(20, 'Registrations from one client address per hour.'),
  REGISTER_MAX_PER_ADDRESS_PER_HOUR: positive(5, 'Registration attempts for one email address per hour.'),
  EMAIL_RESEND_COOLDOWN_SECONDS: Type.Integer({
    default: 60,
    minimum: 0,
    description: 'Minimum gap between verification or reset emails asked for one address; 0 disables.',
  }),
  EMAIL_MAX_PER_ADDRESS_PER_HOUR: positive(5, 'Verification or reset emails asked for one address per hour.'),
  EMAIL_MAX_PER_CLIENT_PER_HOUR: positive(20, 'Verification or reset emails asked from one client address per hour.'),
});
export type AuthConfig = Static<typeof AuthConfig>;

export const loadAuthConfig = (env?: Record<string, string | undefined>) => loadConfig(AuthConfig, env);

/**
 * What `npm run create-admin` needs: the database, and Redis to end a promoted user's sessions.
 * Not INTERNAL_SECRET: an operator's shell need not know the gateway's secret.
 */
const CreateAdminConfig = Type.Object({ ...MongoConfig, ...RedisConfig, ...AuthDatabase });

export const loadCreateAdminConfig = (env?: Record<string, string | undefined>) => loadConfig(CreateAdminConfig, env);
