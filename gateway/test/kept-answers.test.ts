import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api } from '../../test/support/api.js';
import { logLineWith } from '../../test/support/logs.js';

describe('kept public answers, through the real gateway', () => {
  it('carry the request id, the API security headers and an access line like any answer', async () => {
    await api('GET', '/api/requests/covered');
    const id = `kept-${randomUUID()}`;
    const res = await api('GET', '/api/requests/covered', { headers: { 'x-request-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-cache')).toBe('hit');
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Array.isArray(res.body.properties)).toBe(true);
    const line = await logLineWith('gateway', [id], 'the access line of the kept answer');
    expect(JSON.parse(line)).toMatchObject({
      level: 'info',
      name: 'gateway',
      reqId: id,
      method: 'GET',
      url: '/api/requests/covered',
      statusCode: 200,
      msg: 'request completed',
    });
  });

  it('keep CORS closed to a cross-origin caller', async () => {
    await api('GET', '/api/requests/covered');
    const res = await api('GET', '/api/requests/covered', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
