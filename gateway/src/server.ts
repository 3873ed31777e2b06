import { connectRedis, runService } from '@homereport/kit';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

await runService(
  'gateway',
  () => loadGatewayConfig(),
  async (config, logger) => {
    // With the logger: fail fast while Redis is known to be down (kit connections/breaker.ts).
    const redis = await connectRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_TIMEOUT_MS, logger });
    return buildGateway({ config, logger, redis });
  },
);
