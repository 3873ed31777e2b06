import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine here to run it, so the file is checked by reading: valid YAML with anchors
// resolved, every service present, and each one wired to the servers it needs.
const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
const SERVICES = ['auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications'];

describe('docker-compose.yml', () => {
  it('runs the official server images and one container per service plus the gateway', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['mongo', 'kafka', 'redis', 'minio', 'maildev', ...SERVICES, 'gateway']),
    );
    expect(compose.services.mongo.image).toMatch(/^mongo:7/);
    expect(compose.services.kafka.image).toMatch(/^apache\/kafka:3\.9/);
    expect(compose.services.redis.image).toMatch(/^redis:7/);
  });

  it('gives each service its entry point, its port and the server URLs', () => {
    for (const [i, name] of SERVICES.entries()) {
      const env = compose.services[name].environment;
      expect(env.SERVICE).toBe(name);
      expect(env.PORT).toBe(4001 + i);
      // With its credentials (infra/test/deployment-defaults.test.ts checks them).
      expect(env.MONGO_URL).toMatch(/^mongodb:\/\/homereport:\$\{MONGO_PASSWORD:\?[^}]+\}@mongo:27017\//);
      expect(env.KAFKA_BROKERS).toBe('kafka:9092');
      expect(env.INTERNAL_SECRET).toMatch(/INTERNAL_SECRET/);
    }
  });

  it('points the gateway at every service and publishes only its port', () => {
    const gw = compose.services.gateway;
    for (const [i, name] of SERVICES.entries()) {
      expect(gw.environment[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${4001 + i}`);
    }
    expect(gw.ports).toEqual(['8080:8080']);
  });
});
