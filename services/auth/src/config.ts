import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';
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
  PORT: Type.Integer({ default: 4001, minimum: 1, maximum: 65535 }),
  VERIFICATION_TOKEN_TTL_SECONDS: positive(24 * 60 * 60, 'How long an email verification link works.'),
  RESET_TOKEN_TTL_SECONDS: positive(60 * 60, 'How long a password reset link works.'),
  LOGIN_FAILURE_WINDOW_SECONDS: positive(15 * 60, 'The window in which failed sign-ins are counted.'),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positive(5, 'Failed sign-ins for one email address before 429.'),
  LOGIN_MAX_FAILURES_PER_IP: positive(20, 'Failed sign-ins from one client address before 429.'),
  EMAIL_RESEND_COOLDOWN_SECONDS: Type.Integer({
    default: 60,
    minimum: 0,
    description: 'Minimum gap between verification or reset emails asked for one address; 0 disables.',
  }),
});
export type AuthConfig = Static<typeof AuthConfig>;

export const loadAuthConfig = (env?: Record<string, string | undefined>) => loadConfig(AuthConfig, env);

/**
 * What `npm run create-admin` needs: the database, and Redis to end a promoted user's sessions.
 * Not INTERNAL_SECRET: an operator's shell need not know the gateway's secret.
 */
export const CreateAdminConfig = Type.Object({ ...MongoConfig, ...RedisConfig, ...AuthDatabase });
export type CreateAdminConfig = Static<typeof CreateAdminConfig>;

export const loadCreateAdminConfig = (env?: Record<string, string | undefined>) => loadConfig(CreateAdminConfig, env);
