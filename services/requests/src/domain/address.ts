/**
 * Addresses as people type them. The stored address keeps the requester's capitals; which
 * property it names is property-key.ts's.
 */

/** The address as stored and shown: trimmed, inner runs of whitespace made one space. */
export function cleanAddress(raw: string): string {
  return raw.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** Optional text fields: empty or only spaces means "not given". */
export function optionalText(raw: string | undefined): string | null {
  const trimmed = raw?.trim() ?? '';
  return trimmed.length > 0 ? trimmed : null;
}
