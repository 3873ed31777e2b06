import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userToken } from '../../services/leads/test/support/leads.js';
import {
  adminSession,
  closeSupport,
  submit,
  uniqueAddress,
  uploadReport,
} from '../../services/requests/test/support.js';
import { type ApiResponse, api, eventually } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { type PausableServer, injectingFault, pauseServer } from '../../test/support/faults.js';
import { serversPresent } from '../../test/support/servers.js';

// A hung server (paused: connections open, nothing answers) must turn into a quick 503 with
// Retry-After, never a hang or a 500, while public answers already kept go on being served.
// Pausing needs the local server processes: anything else fails, unless explicitly allowed.
const local = serversPresent(
  testEnv().mode === 'local',
  'hung-dependencies tests pause the local server processes, and this run has containers or explicit URLs',
);

const DEADLINE_MS = 2000;

async function timed(call: () => Promise<ApiResponse>): Promise<ApiResponse & { ms: number }> {
  const start = Date.now();
  const res = await call();
  return { ...res, ms: Date.now() - start };
}

describe.runIf(local)('when a server hangs', () => {
  let user: string;
  beforeAll(async () => {
    user = await userToken();
  });
  afterAll(closeSupport);

  async function whilePaused(server: PausableServer, signedInPath: string) {
    // The covered list, once asked, is kept by the gateway.
    expect((await api('GET', '/api/requests/covered')).status).toBe(200);
    expect((await api('GET', '/api/requests/covered')).headers.get('x-cache')).toBe('hit');
    await injectingFault(`${server} paused`, async () => {
      const resume = pauseServer(server);
      try {
        const signedIn = await timed(() => api('GET', signedInPath, { token: user }));
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(503);
        expect(Number(signedIn.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(signedIn.body.error).toMatch(/try again/i);
        expect(signedIn.ms).toBeLessThan(DEADLINE_MS);

        const list = await timed(() => api('GET', '/api/requests/covered'));
        expect(list.status).toBe(200);
        expect(list.ms).toBeLessThan(DEADLINE_MS);

        // Health names the dependency that is down, in each service that uses it.
        // (Its answer is reused for 1.5 s, so one from before the pause may come first.)
        await eventually(
          async () => {
            const health = await api('GET', '/api/health');
            return health.status === 503 && health.body.dependencies.requests?.[server] === 'down';
          },
          5000,
          `/api/health to name ${server} down`,
        );
      } finally {
        resume();
      }
      await eventually(
        async () => (await api('GET', signedInPath, { token: user })).status === 200,
        5000,
        `${signedInPath} to answer 200 within 5 s of ${server} resuming`,
      );
    });
  }

  it('Redis: a signed-in call answers 503 with Retry-After within 2 s; the covered list keeps answering', async () => {
    await whilePaused('redis', '/api/auth/me');
  });

  it('Redis: public reads answer 200 from MongoDB: ZIP details, an unkept list page, the covered search (issue 37)', async () => {
    const listed = await api('GET', '/api/zipcodes?limit=1');
    expect(listed.status).toBe(200);
    const zip = listed.body.zipCodes[0].zipCode as string;
    // Asked once before, so the zipcodes service has it in its detail cache: it must not trust it.
    expect((await api('GET', `/api/zipcodes/${zip}`)).status).toBe(200);
    await injectingFault('redis paused (ZIP reads)', async () => {
      const resume = pauseServer('redis');
      try {
        for (let i = 0; i < 3; i++) {
          const details = await timed(() => api('GET', `/api/zipcodes/${zip}`));
          expect(details.status, JSON.stringify(details.body)).toBe(200);
          expect(details.body.zipCode.zipCode).toBe(zip);
          expect(details.ms).toBeLessThan(DEADLINE_MS);
        }
        // A list URL nobody asked for yet: the gateway keeps nothing for it, the service reads it.
        const page = await timed(() =>
          api('GET', `/api/zipcodes?q=${zip}&limit=${2 + Math.floor(Math.random() * 50)}`),
        );
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expect(page.body.zipCodes.map((z: { zipCode: string }) => z.zipCode)).toContain(zip);
        // The covered search too: its catalogue is read from MongoDB while Redis does not answer.
        const search = await timed(() =>
          api('GET', `/api/requests/covered?q=${Math.random().toString(36).slice(2, 7)}`),
        );
        expect(search.status, JSON.stringify(search.body)).toBe(200);
        expect(search.ms).toBeLessThan(DEADLINE_MS);
      } finally {
        resume();
      }
    });
  });

  it('MongoDB: a signed-in call answers 503 with Retry-After within 2 s; the covered list keeps answering', async () => {
    await whilePaused('mongo', '/api/users/stats');
  });

  it('S3: a report download answers 503 with Retry-After within 2 s, and the file again once S3 is back', async () => {
    const admin = await adminSession();
    const { request } = await submit({ address: uniqueAddress() });
    const link = (await uploadReport(admin, request.id)).report_path as string;
    expect((await api('GET', link)).status).toBe(200);
    await injectingFault('S3 paused', async () => {
      const resume = pauseServer('versitygw');
      try {
        const download = await timed(() => api('GET', link));
        expect(download.status).toBe(503);
        expect(Number(download.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(download.ms).toBeLessThan(DEADLINE_MS);
      } finally {
        resume();
      }
      await eventually(
        async () => (await api('GET', link)).status === 200,
        5000,
        'the download within 5 s of S3 resuming',
      );
    });
  });
});
