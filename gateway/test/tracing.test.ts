import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, eventually, freshClientAddress } from '../../test/support/api.js';
import { logLineWith, logOf } from '../../test/support/logs.js';

describe('trace context', () => {
  it("one coverage request's trace id is in the gateway's, the requests service's and notifications' lines", async () => {
    // As a browser with OpenTelemetry sends it: this trace, its span the gateway's parent.
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const from = freshClientAddress();
    const res = await api('POST', '/api/requests', {
      body: { address: `7 Trace ${traceId.slice(0, 8)} Road, Austin, TX` },
      headers: { traceparent },
      from,
    });
    expect(res.status).toBe(201);
    const id = `"traceId":"${traceId}"`;
    // The gateway's and the service's access lines, then the staff email notifications sent for the event.
    expect(await logLineWith('gateway', [id, '/api/requests'], 'the gateway access line')).toContain(
      '"statusCode":201',
    );
    expect(await logLineWith('requests', [id, '/api/requests'], 'the service access line')).toContain(
      '"statusCode":201',
    );
    // The event reaches notifications through the outbox and Kafka: a longer wait than a log batch.
    const mail = await eventually(
      async () =>
        logOf('notifications')
          .split('\n')
          .find((line) => line.includes(id) && line.includes('"eventType":"request-submitted"')),
      30_000,
      'a notifications line of the event',
    );
    expect(mail).toContain(res.headers.get('x-request-id') ?? 'no request id');
  });

  it('starts a trace for a caller that sends none, or a malformed one', async () => {
    const res = await api('GET', '/api/health/nothing-here', { headers: { traceparent: 'not-a-trace' } });
    expect(res.status).toBe(404);
    const line = await logLineWith('gateway', ['/api/health/nothing-here'], 'the access line');
    expect(line).toMatch(/"traceId":"[0-9a-f]{32}"/);
    expect(line).not.toContain('not-a-trace');
  });
});
