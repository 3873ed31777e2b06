import { connectRedis, reaching, runService } from '@homereport/kit';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

await runService(
  'gateway',
  () => loadGatewayConfig(),
  async (config, logger) => {
    // With the logger: fail fast while Redis is known to be down (kit connections/breaker.ts).
    // A Redis that does not answer stops the start with a line naming REDIS_URL (kit startup.ts).
    const redis = await reaching('Redis', 'REDIS_URL', config.REDIS_URL, () =>
      connectRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_TIMEOUT_MS, logger }),
    );
    return buildGateway({ config, logger, redis });
  },
);
