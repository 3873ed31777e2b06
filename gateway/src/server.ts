import { connectRedis, guardRedis, runService } from '@homereport/kit';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

await runService(
  'gateway',
  () => loadGatewayConfig(),
  async (config, logger) => {
    const redis = await connectRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_TIMEOUT_MS });
    // Fail fast while Redis is known to be down (kit connections/breaker.ts).
    guardRedis(redis, logger);
    return buildGateway({ config, logger, redis });
  },
);
