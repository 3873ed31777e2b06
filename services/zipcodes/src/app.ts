import { type Infrastructure, type Logger, type ServiceApp, createServiceApp } from '@homereport/kit';
import type { ZipcodesConfig } from './config.js';

export interface AppDeps {
  config: ZipcodesConfig;
  logger: Logger;
  infra: Infrastructure;
}

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'zipcodes',
    logger,
    internalSecret: config.INTERNAL_SECRET,
    trustProxy: true,
  });
  infra.attach(app);
  return app;
}
