import { type ServiceApp, connectRedis, createLogger } from '@homereport/kit';
import { testEnv } from '../../../test/support/env.js';
import { buildGateway } from '../../src/app.js';
import { loadGatewayConfig } from '../../src/config.js';

/**
 * A second gateway, built in this process on the test stack's Redis and services, to play the
 * other replica of the stack's gateway. No request budget; `env` adds or overrides settings.
 */
export async function replicaGateway(env: Record<string, string> = {}): Promise<ServiceApp> {
  const stack = testEnv();
  const service = (name: string) => `http://127.0.0.1:${stack.servicePorts[name]}`;
  const config = loadGatewayConfig({
    INTERNAL_SECRET: stack.internalSecret,
    REDIS_URL: stack.redisUrl,
    AUTH_URL: service('auth'),
    REQUESTS_URL: service('requests'),
    FILES_URL: service('files'),
    ZIPCODES_URL: service('zipcodes'),
    LEADS_URL: service('leads'),
    NOTIFICATIONS_URL: service('notifications'),
    WEB_DIST: '/nonexistent-web-dist',
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  const logger = createLogger({ name: 'gateway-replica', level: 'silent', format: 'json' });
  const replica = await buildGateway({ config, logger, redis: await connectRedis(stack.redisUrl) });
  await replica.ready();
  return replica;
}
