import multipart from '@fastify/multipart';
import { REPORT_FILE_TYPES } from '@homereport/contracts';
import { type BackendDeps, type ServiceApp, createBackendApp, fileLinkKey } from '@homereport/kit';
import type { FilesConfig } from './config.js';
import { ObjectStore } from './data/object-store.js';
import { RequestsClient } from './data/requests-client.js';
import { fileRoutes } from './routes/files/index.js';

export type AppDeps = BackendDeps<FilesConfig>;

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createBackendApp({ name: 'files', logger, internalSecret: config.INTERNAL_SECRET }, infra);

  await app.register(multipart, {
    // Parts are streamed, never buffered: these bound what one upload may send.
    limits: {
      fileSize: config.MAX_UPLOAD_BYTES,
      files: REPORT_FILE_TYPES.length,
      fields: 10,
      fieldSize: 1024,
      parts: REPORT_FILE_TYPES.length + 10,
      headerPairs: 100,
    },
  });

  await app.register(fileRoutes, {
    store: new ObjectStore(infra.s3, infra.bucket),
    requests: new RequestsClient(config.REQUESTS_URL, config.INTERNAL_SECRET),
    linkKey: fileLinkKey(config.FILE_LINK_SECRET, config.INTERNAL_SECRET),
    maxBytes: config.MAX_UPLOAD_BYTES,
  });
  return app;
}
