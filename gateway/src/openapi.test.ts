import { createLogger } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './openapi-merge.js';
import { publicDocumentSource } from './openapi.js';
import type { ServiceName } from './routes.js';

const targets: Record<ServiceName, string> = {
  auth: 'http://auth',
  requests: 'http://requests',
  files: 'http://files',
  zipcodes: 'http://zipcodes',
  leads: 'http://leads',
  notifications: 'http://notifications',
};
const PATHS: Record<ServiceName, string> = {
  auth: '/api/auth/me',
  requests: '/api/requests/mine',
  files: '/api/files/{key}',
  zipcodes: '/api/zipcodes',
  leads: '/api/webhooks/leads',
  notifications: '/api/contact',
};
const serviceOf = (url: string) => new URL(url).hostname as ServiceName;
const docOf = (service: ServiceName): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: service, version: '1' },
  paths: { [PATHS[service]]: { get: { responses: {} } } },
});
const logger = createLogger({ name: 'openapi-test', level: 'silent', format: 'json' });

/** A source whose services answer unless listed in `down`, on a clock the test moves. */
function setup() {
  const down = new Set<ServiceName>();
  const asked: string[] = [];
  let clock = 0;
  const source = publicDocumentSource({
    targets,
    logger,
    keepMs: 60_000,
    retryMs: 5000,
    now: () => clock,
    fetchDocument: async (url) => {
      asked.push(url);
      const service = serviceOf(url);
      if (down.has(service)) throw new Error('connection refused');
      return docOf(service);
    },
  });
  const paths = async () => Object.keys((JSON.parse((await source())?.json ?? '{}') as OpenApiDocument).paths ?? {});
  const advance = (ms: number) => {
    clock += ms;
  };
  return { source, down, asked, paths, advance };
}

describe('publicDocumentSource', () => {
  it('asks each service for its /openapi.json once and keeps the complete document', async () => {
    const { source, asked, advance } = setup();
    const [a, b] = await Promise.all([source(), source()]);
    expect(a?.missing).toEqual([]);
    expect(b).toBe(a);
    expect(asked.sort()).toEqual(
      Object.values(targets)
        .map((t) => `${t}/openapi.json`)
        .sort(),
    );
    advance(59_000);
    await source();
    expect(asked).toHaveLength(6);
    advance(2000);
    await source();
    expect(asked).toHaveLength(12);
  });

  it('serves the others when a service is down, names it, and fills it in once it answers', async () => {
    const { source, down, paths, advance } = setup();
    down.add('leads');
    expect((await source())?.missing).toEqual(['leads']);
    expect(await paths()).not.toContain('/api/webhooks/leads');
    expect(await paths()).toContain('/api/contact');
    down.delete('leads');
    // Kept only for the retry delay, not the full keep.
    advance(5001);
    expect((await source())?.missing).toEqual([]);
    expect(await paths()).toContain('/api/webhooks/leads');
  });

  it('keeps a service’s last document when it stops answering', async () => {
    const { source, down, paths, advance } = setup();
    await source();
    down.add('zipcodes');
    advance(61_000);
    expect((await source())?.missing).toEqual([]);
    expect(await paths()).toContain('/api/zipcodes');
  });

  it('has nothing while no service ever answered', async () => {
    const { source, down } = setup();
    for (const s of Object.keys(targets) as ServiceName[]) down.add(s);
    expect(await source()).toBeNull();
  });
});
