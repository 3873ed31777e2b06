import { timeDependency } from '@homereport/kit';
import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from '../domain/ports.js';

/**
 * Connection settings the SMTP URL does not say, added as URL parameters (nodemailer reads its
 * options from the URL's query) unless the operator already set them. Short timeouts: a hung
 * server should fail the attempt, so the consumer's retry with backoff takes over.
 */
const URL_DEFAULTS: Record<string, string> = {
  pool: 'true',
  maxConnections: '3',
  connectionTimeout: '10000',
  greetingTimeout: '10000',
  socketTimeout: '30000',
};

export function transportUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(URL_DEFAULTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * The Message-ID of a message with a key: the key at the sender's domain (of MAIL_FROM), so a
 * message sent again after a crash carries the same one.
 */
export function messageIdFor(key: string, mailFrom: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'homereport.invalid';
  return `<${key}@${domain}>`;
}

/** Sends through SMTP; a refused or failed send rejects, so the caller can retry. */
export function createSmtpMailer(settings: { SMTP_URL: string; MAIL_FROM: string }): Mailer {
  const transport = nodemailer.createTransport(transportUrl(settings.SMTP_URL));
  return {
    async send(mail: OutgoingMail) {
      // Timed for the metrics (dependency_call_duration_seconds{dependency="smtp"}).
      const info = await timeDependency('smtp', 'send', () =>
        transport.sendMail({
          from: settings.MAIL_FROM,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          ...(mail.key ? { messageId: messageIdFor(mail.key, settings.MAIL_FROM) } : {}),
          // Our parts are mostly ASCII: quoted-printable, said once, spares nodemailer counting every
          // letter of each part to choose (a tenth of the service's CPU on 50-lead digests).
          textEncoding: 'quoted-printable',
        }),
      );
      if (info.rejected.length > 0) throw new Error(`the SMTP server refused ${info.rejected.length} recipient(s)`);
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
    },
  };
}
