import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { logLineWith } from '../../test/support/logs.js';

describe('inbound lead posts, through the real gateway', () => {
  it('reach the leads service and come back with its answer, the request id, API headers and an access line', async () => {
    const id = `lane-${randomUUID()}`;
    const res = await api('POST', '/api/webhooks/leads', {
      body: { lead_id: 'no-key', email: 'a@example.test' },
      headers: { 'x-request-id': id },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const line = await logLineWith('gateway', [id, 'request completed'], 'the access line of the forwarded post');
    expect(JSON.parse(line)).toMatchObject({
      reqId: id,
      method: 'POST',
      url: '/api/webhooks/leads',
      statusCode: 401,
    });
  });
});
