import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emailsTo, linkIn, waitForEmail } from '../../../test/support/mail.js';
import { type TestUser, adminSession, closeSupport, session, setStatus, submit, uniqueAddress } from './support.js';

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

  it('covering a request emails the signed-in requester a link to /report/{id}, once', async () => {
    const user = await session();
    const { request } = await submit({ address: uniqueAddress() }, user.token);
    await setStatus(admin, request.id, 'covered');
    const ready = await waitForEmail(user.email, /report is ready/);
    expect(linkIn(ready, `/report/${request.id}`)).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/report/${request.id}$`),
    );
    // One request-covered event, one email, even though the consumer may see the event again.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await emailsTo(user.email)).filter((m) => /report is ready/.test(m.subject))).toHaveLength(1);
  });
});
