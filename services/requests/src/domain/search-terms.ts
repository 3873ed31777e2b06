import type { RequestStatus } from '@homereport/contracts';

/**
 * Words of an address as the admin search matches them: "12 Main St., Austin, TX 78701" is
 * found by "main", "austin tx" or "78701". Whole words, any order, case-insensitive.
 */
export function addressTerms(address: string): string[] {
  return [...new Set(words(address))];
}

/**
 * The public search's terms of a covered address: every beginning of every word ("aus", "austin"),
 * so a word typed in part finds it with one posting list per word typed.
 */
export function prefixTerms(address: string): string[] {
  const prefixes = (w: string) =>
    Array.from({ length: Math.min(w.length, PREFIX_LENGTH) }, (_, i) => w.slice(0, i + 1));
  return [...new Set(words(address).flatMap(prefixes))];
}

/**
 * Beginnings are filed up to this length, and a longer word typed is looked up by its beginning
 * of this length: an address of 300 characters then files at most a few hundred terms.
 */
const PREFIX_LENGTH = 24;

/** The public search's terms of a search box (prefixTerms). */
export function publicQueryTerms(q: string | undefined): string[] {
  return [...new Set(queryTerms(q).map((w) => w.slice(0, PREFIX_LENGTH)))];
}

/** The longest word a search matches: no address word longer is filed (words below). */
export const MAX_WORD_LENGTH = 64;

export const LONG_WORD_MESSAGE = `Search words can be at most ${MAX_WORD_LENGTH} characters long.`;

/** A search box holding a word longer than any filed word: refused (a 400), not read as no words at all. */
export function hasOverlongWord(q: string | undefined): boolean {
  return q !== undefined && allWords(q).some((w) => w.length > MAX_WORD_LENGTH);
}

/** The words of a search box; none when it holds no letter or digit. */
export function queryTerms(q: string | undefined): string[] {
  return q === undefined ? [] : [...new Set(words(q))].slice(0, MAX_QUERY_TERMS);
}

/**
 * The public search's posting list of a ZIP code (the property's, from its normalised address):
 * a word never holds `:`, so no address word files under it.
 */
export const zipTerm = (zip: string) => `zip:${zip}`;

/** The terms a covered property files under in the public search: its words' beginnings and its ZIP code. */
export function coveredTerms(address: string, zip: string | null): string[] {
  return zip ? [...prefixTerms(address), zipTerm(zip)] : prefixTerms(address);
}

/** A posting list per status, next to the words (a word never starts with `~`). */
export const statusTerm = (status: RequestStatus) => `~status:${status}`;

const MAX_QUERY_TERMS = 8;

function allWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

function words(text: string): string[] {
  return allWords(text).filter((w) => w.length <= MAX_WORD_LENGTH);
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
