import { describe, expect, it } from 'vitest';
import { json, standInService } from '../../../test/support/stand-in.js';
import { unavailableDependency } from './dependency-errors.js';
import { ServiceClient, ServiceUnavailableError } from './service-client.js';
import { continueTrace, runInTrace, traceparentOf } from './tracing/context.js';

const callee = standInService();

describe('ServiceClient.call', () => {
  it("sends the secret, the request id and the trace's traceparent, with the route's parameters encoded", async () => {
    let seen: Record<string, unknown> = {};
    const url = await callee.start((req, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers };
      json(200, { ok: true })(req, res);
    });
    const trace = continueTrace(undefined);
    const reply = await runInTrace(trace, () =>
      new ServiceClient('requests', url, 'the secret', 2000).call({
        method: 'PUT',
        route: '/internal/requests/:id/files',
        params: { id: 'a b/c' },
        requestId: 'req-7',
        body: { files: [] },
      }),
    );
    expect(reply).toEqual({ ok: true });
    expect(seen).toMatchObject({
      method: 'PUT',
      url: '/internal/requests/a%20b%2Fc/files',
      headers: {
        'x-internal-secret': 'the secret',
        'x-request-id': 'req-7',
        'content-type': 'application/json',
        traceparent: traceparentOf(trace),
      },
    });
  });

  it('answers null for a 404, and throws a 4xx as the bug it is', async () => {
    const client = new ServiceClient('requests', await callee.start(json(404, {})), 's', 2000);
    expect(await client.call({ route: '/internal/requests/:id', params: { id: 'r1' }, requestId: 'q' })).toBeNull();
    const refusing = new ServiceClient('requests', await callee.start(json(400, { error: 'no' })), 's', 2000);
    const err = await refusing.call({ route: '/x', requestId: 'q' }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ServiceUnavailableError);
    expect((err as Error).message).toBe('requests answered 400 to GET /x: {"error":"no"}');
  });

  it('throws a 5xx, a hung answer and a closed port as the service being unavailable (a 503 for the caller)', async () => {
    const failing = new ServiceClient('zipcodes', await callee.start(json(503, {})), 's', 2000);
    const answered = await failing.call({ route: '/x', requestId: 'q' }).catch((e: unknown) => e);
    expect(answered).toMatchObject({ name: 'ServiceUnavailableError', status: 503, message: 'zipcodes answered 503' });
    expect(unavailableDependency(answered)).toBe('network');
    const hungUrl = await callee.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"zipCode":');
    });
    const hung = await new ServiceClient('zipcodes', hungUrl, 's', 200)
      .call({ route: '/x', requestId: 'q' })
      .catch((e) => e);
    expect(hung).toMatchObject({ status: undefined, message: 'zipcodes unavailable (TimeoutError)' });
    await callee.stop();
    const gone = await new ServiceClient('zipcodes', hungUrl, 's', 2000)
      .call({ route: '/x', requestId: 'q' })
      .catch((e) => e);
    expect(gone).toBeInstanceOf(ServiceUnavailableError);
  });
});
