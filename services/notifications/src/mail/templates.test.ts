import { describe, expect, it } from 'vitest';
import { escapeHtml, oneLine } from './layout.js';
import { contactAcknowledgementEmail, contactStaffEmail, passwordResetEmail, verificationEmail } from './templates.js';

const brand = { publicUrl: 'https://homereport.example', supportEmail: 'support@homereport.example' };
const hostile = {
  messageId: 'm-1',
  name: '<script>alert("n")</script> Eve',
  email: 'eve@example.test',
  subject: 'Hello <b>bold</b> & "quotes"\r\nBcc: victim@example.test',
  message: 'Line one <img src=x onerror=alert(1)>\nLine two & more',
};

describe('email templates', () => {
  it('the verification email has both parts, the brand, the link as a button and the 24 hour expiry', () => {
    const url = 'https://homereport.example/verify-email?token=abc&x=1';
    const email = verificationEmail({ verifyUrl: url }, brand);
    expect(email.subject).toBe('Verify your email for HomeReport');
    expect(email.html).toContain('HomeReport');
    expect(email.html).toContain(`href="${escapeHtml(url)}"`);
    expect(email.html).toContain('24 hours');
    expect(email.text).toContain('HomeReport');
    expect(email.text).toContain(url);
    expect(email.text).toContain('expires in 24 hours');
  });

  it('the reset email links the reset page, expires in 1 hour and says to ignore it if not asked for', () => {
    const url = 'https://homereport.example/reset-password?token=xyz';
    const email = passwordResetEmail({ resetUrl: url }, brand);
    expect(email.subject).toMatch(/reset.*HomeReport password/i);
    for (const part of [email.html, email.text]) {
      expect(part).toContain(url);
      expect(part).toContain('1 hour');
      expect(part).toMatch(/did not ask.*ignore this email/);
    }
  });

  it('the staff email escapes every field the visitor wrote and keeps the subject on one line', () => {
    const email = contactStaffEmail(hostile, brand);
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('<b>bold</b>');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;n&quot;)&lt;/script&gt; Eve');
    expect(email.html).toContain('Line one &lt;img src=x onerror=alert(1)&gt;\nLine two &amp; more');
    expect(email.html).toContain('Hello &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;');
    expect(email.subject).toBe('Contact form: Hello <b>bold</b> & "quotes" Bcc: victim@example.test');
    expect(email.subject).not.toMatch(/[\r\n]/);
    // The plain-text part is plain: the visitor's words as written, the message quoted line by line.
    expect(email.text).toContain('Name: <script>alert("n")</script> Eve');
    expect(email.text).toContain('Email: eve@example.test');
    expect(email.text).toContain('> Line one <img src=x onerror=alert(1)>\n> Line two & more');
  });

  it('the acknowledgement promises a reply within 24 hours on business days and repeats nothing the sender wrote', () => {
    const email = contactAcknowledgementEmail(brand);
    expect(email.subject).toBe('We received your message to HomeReport');
    for (const part of [email.html, email.text]) {
      expect(part).toContain('HomeReport');
      expect(part).toContain('within 24 hours on business days');
    }
  });

  it('every email shares the branded layout: header bar, footer with the support address', () => {
    const emails = [
      verificationEmail({ verifyUrl: 'https://a.example/v' }, brand),
      passwordResetEmail({ resetUrl: 'https://a.example/r' }, brand),
      contactStaffEmail(hostile, brand),
      contactAcknowledgementEmail(brand),
    ];
    for (const email of emails) {
      expect(email.html).toMatch(/^<!doctype html>/);
      expect(email.html).toContain('background:#1e3a8a');
      expect(email.html).toContain('mailto:support@homereport.example');
      expect(email.text).toMatch(/^HomeReport\n=+\n/);
      expect(email.text).toContain('Questions? Write to support@homereport.example');
    }
  });
});

describe('oneLine', () => {
  it('folds line breaks and control characters into single spaces and shortens long text', () => {
    expect(oneLine('a\r\n\tb\u0000c')).toBe('a b c');
    expect(oneLine('x'.repeat(10), 5)).toBe('xxxx…');
  });
});
