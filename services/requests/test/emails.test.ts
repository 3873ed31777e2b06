import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually } from '../../../test/support/api.js';
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
    const staff = await waitForEmail(STAFF, new RegExp(address.slice(0, 20)));
    expect(staff.text).toContain(user.email);
    expect(staff.text).toContain('Check the roof');
    expect(staff.text).toContain(`/admin/request/${request.id}`);
    expect(staff.replyTo?.[0]?.address).toBe(user.email);
    const receipt = await waitForEmail(user.email, /We received your request/);
    expect(receipt.text).toContain(address);
    expect(receipt.text).toContain('3-5 business days');
  });

  it('an anonymous request emails the staff only', async () => {
    const address = uniqueAddress();
    await submit({ address });
    const staff = await waitForEmail(STAFF, new RegExp(address.slice(0, 20)));
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
});
