import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaGraphClient } from './meta-graph.js';

// How each kind of Graph answer is classed: found, gone (skip), unreadable (skip) or retry (503).
// A throwaway local server answers by the leadgen id in the path.

const answers: Record<string, { status: number; body: string }> = {
  found: { status: 200, body: JSON.stringify({ id: 'found', field_data: [{ name: 'email', values: ['a@b.c'] }] }) },
  deleted: {
    status: 400,
    body: JSON.stringify({ error: { message: 'does not exist', type: 'GraphMethodException', code: 100 } }),
  },
  notfound: { status: 404, body: 'no' },
  throttled: {
    status: 400,
    body: JSON.stringify({ error: { message: 'Application request limit reached', code: 4 } }),
  },
  transient: { status: 400, body: JSON.stringify({ error: { message: 'try again', code: 9999, is_transient: true } }) },
  token: { status: 400, body: JSON.stringify({ error: { message: 'Session has expired', code: 190 } }) },
  limited: { status: 429, body: '' },
  broken: { status: 502, body: '<html>bad gateway</html>' },
  nofields: { status: 200, body: JSON.stringify({ id: 'nofields' }) },
};

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const id = (req.url ?? '').split('?')[0]?.split('/').at(-1) ?? '';
    const answer = answers[id] ?? { status: 500, body: '' };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => new MetaGraphClient({ baseUrl: base, accessToken: 'tok en/&', timeoutMs: 5000 });

describe('MetaGraphClient.readLead', () => {
  it('reads <base>/<id> with the token in access_token (the base without its trailing slash)', async () => {
    const read = await client().readLead('found');
    expect(read).toEqual({ kind: 'found', lead: { id: 'found', field_data: [{ name: 'email', values: ['a@b.c'] }] } });
    expect(seen.at(-1)).toBe('/v21.0/found?access_token=tok%20en%2F%26');
  });

  it.each([
    ['deleted', 'gone'],
    ['notfound', 'gone'],
    ['nofields', 'unreadable'],
    ['throttled', 'retry'],
    ['transient', 'retry'],
    ['token', 'retry'],
    ['limited', 'retry'],
    ['broken', 'retry'],
  ])('classes the answer for "%s" as %s', async (id, kind) => {
    expect((await client().readLead(id)).kind).toBe(kind);
  });

  it('names the status and Graph code in the reason, never the token', async () => {
    const read = await client().readLead('token');
    expect(read).toEqual({ kind: 'retry', reason: 'status 400, code 190: Session has expired' });
  });

  it('asks again later when nothing listens', async () => {
    const closed = new MetaGraphClient({ baseUrl: 'http://127.0.0.1:9/v21.0', accessToken: 't', timeoutMs: 2000 });
    expect(await closed.readLead('x')).toEqual({ kind: 'retry', reason: 'the Graph API could not be reached' });
  });
});
