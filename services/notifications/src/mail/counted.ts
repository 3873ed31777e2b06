import { businessMetrics } from '@homereport/kit';
import type { Mailer } from '../domain/ports.js';

/**
 * Counts every send by template and outcome (homereport_emails_sent_total): sent when the SMTP
 * server took it, failed when it refused or did not answer (the consumer retries the event, and
 * a later success counts as sent again, so failed counts attempts, not lost emails).
 */
export function countedMailer(mailer: Mailer): Mailer {
  return {
    async send(mail) {
      try {
        const sent = await mailer.send(mail);
        businessMetrics.emailSent(mail.template, 'sent');
        return sent;
      } catch (err) {
        businessMetrics.emailSent(mail.template, 'failed');
        throw err;
      }
    },
    close: () => mailer.close(),
  };
}
