import { type BackendDeps, type ServiceApp, SessionStore, createBackendApp, requireIndexes } from '@homereport/kit';
import type { AuthConfig } from './config.js';
import { RedisLimits } from './data/limits.js';
import { MongoMfaStore } from './data/mfa-store.js';
import { RequestsClient } from './data/requests-client.js';
import { INDEXES, userModel } from './data/user-model.js';
import { UsersRepository } from './data/users-repository.js';
import { Accounts } from './domain/accounts.js';
import { AdminMfa } from './domain/admin-mfa.js';
import { OwnAccount } from './domain/own-account.js';
import { OUTBOX_COLLECTIONS } from './events/published.js';
import { accountRoutes } from './routes/account/index.js';
import { authRoutes } from './routes/auth/index.js';

export type AppDeps = BackendDeps<AuthConfig>;

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createBackendApp({ name: 'auth', logger, internalSecret: config.INTERNAL_SECRET }, infra);

  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(infra.db, INDEXES);
  const relay = infra.startOutboxRelay([...OUTBOX_COLLECTIONS]);
  const users = new UsersRepository(userModel(infra.mongoose), relay);

  const sessions = new SessionStore(infra.redis);
  const limits = new RedisLimits(infra.redis, {
    signInWindowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    signInMaxPerAccountAndClient: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    signInMaxPerClient: config.LOGIN_MAX_FAILURES_PER_IP,
    signInSlowdownAfter: config.LOGIN_SLOWDOWN_AFTER,
    signInSlowdownBaseSeconds: config.LOGIN_SLOWDOWN_BASE_SECONDS,
    signInSlowdownMaxSeconds: config.LOGIN_SLOWDOWN_MAX_SECONDS,
    codeSlowdownAfter: config.MFA_CODE_SLOWDOWN_AFTER,
    registerMaxPerClientPerHour: config.REGISTER_MAX_PER_CLIENT_PER_HOUR,
    registerMaxPerAddressPerHour: config.REGISTER_MAX_PER_ADDRESS_PER_HOUR,
    mailCooldownSeconds: config.EMAIL_RESEND_COOLDOWN_SECONDS,
    mailMaxPerAddressPerHour: config.EMAIL_MAX_PER_ADDRESS_PER_HOUR,
    mailMaxPerClientPerHour: config.EMAIL_MAX_PER_CLIENT_PER_HOUR,
  });
  const accounts = new Accounts(users, sessions, limits, {
    eventSecretKey: config.EVENT_SECRET_KEY,
    verificationTokenTtlSeconds: config.VERIFICATION_TOKEN_TTL_SECONDS,
    resetTokenTtlSeconds: config.RESET_TOKEN_TTL_SECONDS,
    adminSession: {
      idleSeconds: config.ADMIN_SESSION_IDLE_MINUTES * 60,
      absoluteSeconds: config.ADMIN_SESSION_MAX_HOURS * 3600,
    },
    mfa: new AdminMfa(new MongoMfaStore(infra.mongoose), {
      eventSecretKey: config.EVENT_SECRET_KEY,
      required: config.ADMIN_MFA_REQUIRED,
      issuer: 'HomeReport',
    }),
  });
  const ownAccount = new OwnAccount({
    users,
    sessions,
    limits,
    userData: new RequestsClient(config.REQUESTS_URL, config.INTERNAL_SECRET, config.REQUESTS_TIMEOUT_MS),
  });
  await app.register(authRoutes, { accounts });
  await app.register(accountRoutes, { ownAccount });
  return app;
}
