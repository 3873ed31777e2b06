import { type Infrastructure, type Logger, type ServiceApp, createServiceApp } from '@homereport/kit';
import type { RequestsConfig } from './config.js';

export interface AppDeps {
  config: RequestsConfig;
  logger: Logger;
  infra: Infrastructure;
}

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'requests',
    logger,
    internalSecret: config.INTERNAL_SECRET,
    trustProxy: true,
  });
  infra.attach(app);
  return app;
}
