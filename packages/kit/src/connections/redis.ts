import { Redis } from 'ioredis';
import type { ServiceApp } from '../app.js';

export type { Redis } from 'ioredis';

export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    // Fail a command quickly while Redis is away instead of queueing it forever.
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  await redis.connect();
  return redis;
}

export function registerRedis(app: ServiceApp, redis: Redis): void {
  app.readiness.add('redis', async () => {
    await redis.ping();
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
}
