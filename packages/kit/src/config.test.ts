import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, MongoConfig, S3Config, loadConfig } from './config.js';

const schema = Type.Object({ ...MongoConfig, ...S3Config });

describe('loadConfig outside development', () => {
  it('uses the developer defaults when NODE_ENV is not production', () => {
    expect(loadConfig(schema, {}).S3_ACCESS_KEY).toBe('homereport-dev');
  });

  it('refuses to start in production without each credential and server address, naming every one', () => {
    let error: unknown;
    try {
      loadConfig(schema, { NODE_ENV: 'production', S3_ENDPOINT: 'https://s3.example.com' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const key of ['MONGO_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'])
      expect(problems).toContain(`${key}: must be set`);
    expect(problems).not.toContain('S3_ENDPOINT');
  });

  it('starts in production once they are given', () => {
    const env = {
      NODE_ENV: 'production',
      MONGO_URL: 'mongodb://db.internal:27017/',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_ACCESS_KEY: 'AKIA',
      S3_SECRET_KEY: 'secret',
    };
    expect(loadConfig(schema, env).S3_SECRET_KEY).toBe('secret');
  });
});
