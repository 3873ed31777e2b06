/**
 * Contact details and outside links, read once from Vite build-time variables so each
 * deployment sets its own without touching components. Defaults use reserved example
 * values so nothing real is promised by accident.
 */

function read(value: string | undefined, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

const env = import.meta.env;

/**
 * The same default as the notifications service's SUPPORT_EMAIL, so the site and the emails name
 * one mailbox; the build reads SUPPORT_EMAIL too (tools/supportEmail.ts).
 */
export const DEFAULT_SUPPORT_EMAIL = 'support@homereport.example';

export const site = {
  name: 'HomeReport',
  supportEmail: read(env.VITE_SUPPORT_EMAIL, DEFAULT_SUPPORT_EMAIL),
  supportPhone: read(env.VITE_SUPPORT_PHONE, '+1 (555) 010-0100'),
  officeAddress: read(env.VITE_OFFICE_ADDRESS, '100 Market Street, Suite 300, Springfield, IL 62701'),
  liveChatUrl: read(env.VITE_LIVE_CHAT_URL, 'https://homereport.example/chat'),
  privacyEmail: read(env.VITE_PRIVACY_EMAIL, 'privacy@homereport.example'),
  dpoEmail: read(env.VITE_DPO_EMAIL, 'dpo@homereport.example'),
  subscribeUrl: read(env.VITE_SUBSCRIBE_URL, 'https://homereport.example/subscribe'),
} as const;

export function mailtoHref(email: string): string {
  return `mailto:${email}`;
}

/** tel: links accept digits and a leading plus only. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  return `tel:${digits}`;
}

export function mapHref(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}
