import type { HealthReply } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { systemStatus } from './adminView';

const allUp: HealthReply = {
  status: 'ok',
  services: { auth: 'up', requests: 'up', files: 'up', zipcodes: 'up', leads: 'up', notifications: 'up' },
  dependencies: {
    auth: { mongo: 'up', redis: 'up', kafka: 'up' },
    requests: { mongo: 'up', redis: 'up', kafka: 'up' },
    files: { mongo: 'up', redis: 'up', kafka: 'up', s3: 'up' },
    zipcodes: { mongo: 'up', redis: 'up', kafka: 'up' },
    leads: { mongo: 'up', redis: 'up', kafka: 'up' },
    notifications: { mongo: 'up', redis: 'up', kafka: 'up' },
  },
};

const byKey = (health: HealthReply) => Object.fromEntries(systemStatus(health).map((row) => [row.key, row]));

describe('system status', () => {
  it('says everything is up when the health answer says so', () => {
    const rows = byKey(allUp);
    expect(rows.services).toMatchObject({ state: 'up', text: 'All 6 running' });
    expect(rows.mongo).toMatchObject({ label: 'Database', state: 'up', text: 'Connected' });
    expect(rows.s3).toMatchObject({ state: 'up' });
    expect(rows.email).toMatchObject({ state: 'up', text: 'Active' });
  });

  it('names the service a dependency is down for, and a service that does not answer', () => {
    // Notifications did not answer, so it reported no dependencies at all.
    const { notifications: _silent, ...answered } = allUp.dependencies ?? {};
    const health: HealthReply = {
      status: 'degraded',
      services: { ...allUp.services, requests: 'down', notifications: 'down' },
      dependencies: { ...answered, requests: { mongo: 'down', redis: 'up', kafka: 'up' } },
    };
    const rows = byKey(health);
    expect(rows.services).toMatchObject({ state: 'down', text: 'Not answering: requests, email' });
    expect(rows.mongo).toMatchObject({ state: 'down', text: 'Down for requests' });
    expect(rows.redis).toMatchObject({ state: 'up' });
    expect(rows.email).toMatchObject({ state: 'down', text: 'Not answering' });
  });

  it('claims nothing it was not told: no reports means unknown, not connected', () => {
    const health: HealthReply = {
      status: 'degraded',
      services: {
        auth: 'down',
        requests: 'down',
        files: 'down',
        zipcodes: 'down',
        leads: 'down',
        notifications: 'down',
      },
      dependencies: {},
    };
    const rows = byKey(health);
    expect(rows.mongo).toMatchObject({ state: 'unknown', text: 'Not reported' });
    expect(rows.s3).toMatchObject({ state: 'unknown' });
  });
});
