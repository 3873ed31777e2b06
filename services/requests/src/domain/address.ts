/**
 * Addresses as people type them: "12 Main St,  Springfield " and "12 main st, springfield" are
 * the same property. The stored address keeps the requester's capitals; the key that finds a
 * recent request for the same property ignores case, spacing and spaces before punctuation.
 */

/** The address as stored and shown: trimmed, inner runs of whitespace made one space. */
export function cleanAddress(raw: string): string {
  return raw.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** The duplicate-detection key (trimmed, case-insensitive, spacing-insensitive). */
export function addressKey(raw: string): string {
  return cleanAddress(raw)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+([,.;#])/g, '$1')
    .replace(/[.]+$/, '');
}

/** Optional text fields: empty or only spaces means "not given". */
export function optionalText(raw: string | undefined): string | null {
  const trimmed = raw?.trim() ?? '';
  return trimmed.length > 0 ? trimmed : null;
}
