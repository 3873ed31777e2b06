import type { RequestStatus } from '@homereport/contracts';

/**
 * Words of an address as the admin search matches them: "12 Main St., Austin, TX 78701" is
 * found by "main", "austin tx" or "78701". Whole words, any order, case-insensitive.
 */
export function addressTerms(address: string): string[] {
  return [...new Set(words(address))];
}

/** The words of a search box; none when it holds no letter or digit. */
export function queryTerms(q: string | undefined): string[] {
  return q === undefined ? [] : [...new Set(words(q))].slice(0, MAX_QUERY_TERMS);
}

/** A posting list per status, next to the words (a word never starts with `~`). */
export const statusTerm = (status: RequestStatus) => `~status:${status}`;

const MAX_QUERY_TERMS = 8;

function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && w.length <= 64);
}

/**
 * The city of a U.S. address as people write it, for sorting: the part before the state in
 * "street, city, ST 12345", or the words before the state in "street, City ST 12345". Empty when
 * the address has no comma (then it sorts last).
 */
export function cityOf(address: string): string {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length >= 3) {
    const city = parts[parts.length - 2] ?? '';
    // "street, city, state, ZIP" puts the state second to last: the city is one before it.
    return /^[a-z]{2}$/i.test(city) && parts.length >= 4 ? (parts[parts.length - 3] ?? '') : city;
  }
  if (parts.length === 2)
    return (parts[1] ?? '')
      .replace(/\s+[a-z]{2}(\s+\d{5}(-\d{4})?)?$/i, '')
      .replace(/\s+\d{5}(-\d{4})?$/, '')
      .trim();
  return '';
}
