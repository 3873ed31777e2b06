import { Client } from 'minio';
import type { ServiceApp } from '../app.js';

export type { Client as S3Client } from 'minio';

export interface S3Settings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export function createS3Client(settings: S3Settings): Client {
  const url = new URL(settings.endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: true,
  });
}

export async function ensureBucket(client: Client, bucket: string, region: string): Promise<void> {
  if (!(await client.bucketExists(bucket))) {
    await client.makeBucket(bucket, region).catch(async (err: { code?: string }) => {
      // Another replica may have created it between our check and our call.
      if (err.code !== 'BucketAlreadyOwnedByYou' && err.code !== 'BucketAlreadyExists') throw err;
    });
  }
}

export function registerS3(app: ServiceApp, client: Client, bucket: string): void {
  app.readiness.add('s3', async () => {
    if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} missing`);
  });
}
