import { connectRedis, runService } from '@homereport/kit';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

await runService(
  'gateway',
  () => loadGatewayConfig(),
  async (config, logger) => {
    const redis = await connectRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_TIMEOUT_MS });
    return buildGateway({ config, logger, redis });
  },
);
