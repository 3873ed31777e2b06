import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { api, eventually } from '../../../test/support/api.js';
import { emailsTo, linkIn, waitForEmail } from '../../../test/support/mail.js';
import {
  type TestUser,
  adminSession,
  closeSupport,
  session,
  setStatus,
  submit,
  uniqueAddress,
  uploadReport,
} from './support.js';

const STAFF = 'staff@homereport.local';

/** The staff email that tells of this address: its own alert, or a digest with others that came together. */
const staffEmailAbout = (address: string) =>
  eventually(
    async () => (await emailsTo(STAFF)).find((m) => m.text.includes(address)),
    30_000,
    `a staff email about ${address}`,
  );

let admin: TestUser;
beforeAll(async () => {
  admin = await adminSession();
});
afterAll(closeSupport);

describe('emails about requests', () => {
  it('a signed-in request emails the staff and a receipt to the requester', async () => {
    const user = await session();
    const address = uniqueAddress();
    const { request } = await submit({ address, notes: 'Check the roof' }, user.token);
    const staff = await staffEmailAbout(address);
    expect(staff.text).toContain(user.email);
    expect(staff.text).toContain('Check the roof');
    expect(staff.text).toContain(`/admin/request/${request.id}`);
    // Alone, the alert answers the requester; in a digest (other tests' requests arrived together) nobody.
    if (/^New coverage request:/.test(staff.subject)) expect(staff.replyTo?.[0]?.address).toBe(user.email);
    const receipt = await waitForEmail(user.email, /We received your request/);
    expect(receipt.text).toContain(address);
    expect(receipt.text).toContain('3-5 business days');
  });

  it('an anonymous request emails the staff only', async () => {
    const address = uniqueAddress();
    await submit({ address });
    const staff = await staffEmailAbout(address);
    expect(staff.text).toMatch(/Anonymous visitor/);
  });

  it('covering a request emails the signed-in requester a link to /report/{id}, once, even when covered again', async () => {
    const user = await session();
    const { request } = await submit({ address: uniqueAddress() }, user.token);
    await uploadReport(admin, request.id);
    await setStatus(admin, request.id, 'covered');
    const ready = await waitForEmail(user.email, /report is ready/);
    expect(linkIn(ready, `/report/${request.id}`)).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/report/${request.id}$`),
    );
    // Set back and covered again: no second email.
    await setStatus(admin, request.id, 'in_progress');
    await setStatus(admin, request.id, 'covered');
    // A sentinel: the same user's next covered request emails after anything the first could.
    const { request: next } = await submit({ address: uniqueAddress() }, user.token);
    await uploadReport(admin, next.id);
    await setStatus(admin, next.id, 'covered');
    await eventually(
      async () => (await emailsTo(user.email)).some((m) => m.text.includes(`/report/${next.id}`)),
      30_000,
      'the sentinel ready email',
    );
    const forFirst = (await emailsTo(user.email)).filter(
      (m) => /report is ready/.test(m.subject) && m.text.includes(`/report/${request.id}`),
    );
    expect(forFirst).toHaveLength(1);
  });

  it('covering a request covers the open requests of its property with the same files; each requester hears once', async () => {
    const [first, second] = [await session(), await session()];
    const address = uniqueAddress();
    const { request: original } = await submit({ address }, first.token);
    const { request: again } = await submit({ address: address.toUpperCase() }, second.token);
    // Asking again is no second request: their earlier one is answered.
    const twice = await api('POST', '/api/requests', { body: { address }, token: second.token });
    expect(twice.status).toBe(200);
    expect(twice.body.duplicate_of).toBe(again.id);
    await setStatus(admin, again.id, 'in_progress');
    await uploadReport(admin, original.id);
    await setStatus(admin, original.id, 'covered');

    for (const id of [again.id]) {
      const res = await api('GET', `/api/admin/requests/${id}`, { token: admin.token });
      expect(res.body.status).toBe('covered');
      expect(res.body.report_path).toMatch(/^\/api\/files\//);
    }
    // The other request's report opens, with the original's file.
    const view = await api('GET', `/api/requests/${again.id}/view`, { token: second.token });
    expect(view.status).toBe(200);
    const file = await api('GET', view.body.request.report_path);
    expect(file.status).toBe(200);
    expect(String(file.body)).toContain(`report of ${original.id}`);

    await waitForEmail(first.email, /report is ready/);
    await waitForEmail(second.email, /report is ready/);
    // A sentinel: a later ready email to the second requester arrives after any repeat could.
    const { request: next } = await submit({ address: uniqueAddress() }, second.token);
    await uploadReport(admin, next.id);
    await setStatus(admin, next.id, 'covered');
    await eventually(
      async () => (await emailsTo(second.email)).some((m) => m.text.includes(`/report/${next.id}`)),
      30_000,
      'the sentinel ready email',
    );
    const ready = (await emailsTo(second.email)).filter((m) => /report is ready/.test(m.subject));
    expect(ready.map((m) => m.text.includes(`/report/${next.id}`))).toEqual(expect.arrayContaining([true, false]));
    expect(ready).toHaveLength(2);
    expect((await emailsTo(first.email)).filter((m) => /report is ready/.test(m.subject))).toHaveLength(1);

    // My Requests: one line for the property the second user asked about twice.
    const mine = await api('GET', '/api/requests/mine', { token: second.token });
    const lines = mine.body.requests.filter(
      (r: { address: string }) => r.address.toLowerCase() === address.toLowerCase(),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0].status).toBe('covered');
  });

  it('replacing the original report file keeps the file its duplicates point at', async () => {
    const address = uniqueAddress();
    const { request: original } = await submit({ address }, (await session()).token);
    const { request: duplicate } = await submit({ address }, (await session()).token);
    await uploadReport(admin, original.id);
    await setStatus(admin, original.id, 'covered');
    const before = (await api('GET', `/api/admin/requests/${duplicate.id}`, { token: admin.token })).body;
    await uploadReport(admin, original.id);
    const file = await api('GET', before.report_path);
    expect(file.status).toBe(200);
  });

  it('a burst of requests reaches the staff in digests: every address told, in fewer emails than requests', async () => {
    const addresses = Array.from({ length: 30 }, () => uniqueAddress());
    await Promise.all(addresses.map((address) => submit({ address })));
    const about = async () => {
      const mails = (await emailsTo(STAFF)).filter((m) => addresses.some((a) => m.text.includes(a)));
      return addresses.every((a) => mails.some((m) => m.text.includes(a))) ? mails : undefined;
    };
    const mails = await eventually(about, 30_000, 'staff emails telling of all 30 requests');
    expect(mails.length).toBeLessThan(addresses.length);
    // Each address in exactly one staff email.
    for (const a of addresses) expect(mails.filter((m) => m.text.includes(a))).toHaveLength(1);
  });
});
