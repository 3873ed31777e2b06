import { eventually } from './api.js';
import { testEnv } from './env.js';

export interface Email {
  id: string;
  subject: string;
  html: string;
  text: string;
  to: { address: string; name?: string }[];
  from: { address: string; name?: string }[];
  replyTo?: { address: string; name?: string }[];
  headers: Record<string, string>;
}

/** Every message maildev received (its REST API), newest last. */
export async function allEmails(): Promise<Email[]> {
  const res = await fetch(`${testEnv().maildevUrl}/email`);
  if (!res.ok) throw new Error(`maildev answered ${res.status}`);
  return (await res.json()) as Email[];
}

export async function emailsTo(address: string): Promise<Email[]> {
  const all = await allEmails();
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits for a message to `address` whose subject matches. */
export async function waitForEmail(address: string, subject: RegExp = /.*/, timeoutMs = 30_000): Promise<Email> {
  return eventually(
    async () => (await emailsTo(address)).find((m) => subject.test(m.subject)),
    timeoutMs,
    `an email to ${address} with subject ${subject}`,
  );
}

/** The first link in a message that starts with `prefix` (e.g. the verification link). */
export function linkIn(email: Email, pathPart: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]*${pathPart.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`).exec(
    email.html || email.text,
  );
  if (!match) throw new Error(`no link containing ${pathPart} in "${email.subject}"`);
  return match[0].replaceAll('&amp;', '&');
}

/** The token in a link such as `<PUBLIC_URL>/verify-email?token=...`. */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error('link without a token');
  return token;
}
