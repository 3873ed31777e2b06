import { type Infrastructure, type Logger, type ServiceApp, createServiceApp } from '@homereport/kit';
import type { LeadsConfig } from './config.js';

export interface AppDeps {
  config: LeadsConfig;
  logger: Logger;
  infra: Infrastructure;
}

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'leads',
    logger,
    internalSecret: config.INTERNAL_SECRET,
    trustProxy: true,
  });
  infra.attach(app);
  return app;
}
