import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { waitForEmail } from '../../../test/support/mail.js';
import { createSmtpMailer } from '../src/mail/transport.js';

// The mailer against the test run's real SMTP server (maildev), read back through its API.
const mailer = createSmtpMailer({ SMTP_URL: testEnv().smtpUrl, MAIL_FROM: 'HomeReport <no-reply@homereport.local>' });
afterAll(() => mailer.close());

describe('the SMTP mailer', () => {
  it('delivers both parts intact, whatever the script, and long lines unbroken', async () => {
    const to = `mailer-${randomUUID().slice(0, 8)}@homereport.local`;
    const words = 'José Ñúñez, 王小明, Zoë Ølberg 🏠 — “quoted” = ok';
    const longLine = `${'a'.repeat(300)} ${words}`;
    await mailer.send({
      to: { address: to },
      template: 'contact-acknowledgement',
      subject: `Encoding ${words}`,
      html: `<p>${words}</p><p>${longLine}</p>`,
      text: `${words}\n${longLine}\n`,
    });
    const mail = await waitForEmail(to);
    expect(mail.subject).toBe(`Encoding ${words}`);
    expect(mail.html).toContain(`<p>${words}</p><p>${longLine}</p>`);
    expect(mail.text).toContain(`${words}\n${longLine}`);
  });
});
