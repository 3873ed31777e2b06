import { ZIP_CODE_PATTERN, zipTierNumber } from '@homereport/contracts';

const zipCodePattern = new RegExp(ZIP_CODE_PATTERN);

/** Whether a text is a ZIP code as the server takes one: five digits. */
export const isZipCode = (text: string) => zipCodePattern.test(text);

/** A ZIP code's investment tier as the screens say it. */
export interface ZipTier {
  /** 1, 2 or 3; 0 when the text does not say (the server's own reading). */
  number: 0 | 1 | 2 | 3;
  /** The text before the colon: 'TIER 2'. */
  badge: string;
  /** The words after it: 'High-Growth'; empty when there are none. */
  label: string;
  /** What a badge says: 'Tier 2', or the text as given when it names no tier. */
  name: string;
}

/** 'TIER 2: High-Growth' → { number: 2, badge: 'TIER 2', label: 'High-Growth' }. */
export function zipTier(tier: string): ZipTier {
  const colon = tier.indexOf(':');
  const number = zipTierNumber(tier);
  const badge = (colon === -1 ? tier : tier.slice(0, colon)).trim();
  return {
    number,
    badge,
    label: colon === -1 ? '' : tier.slice(colon + 1).trim(),
    name: number > 0 ? `Tier ${number}` : badge,
  };
}
