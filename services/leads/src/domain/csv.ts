/**
 * CSV as RFC 4180 writes it: comma-separated, CRLF line ends, every field quoted and quotes
 * inside doubled. Quoting every field (not only those with a comma) keeps a `;` inside a cell
 * when a spreadsheet opens the file in a locale whose separator is `;`.
 *
 * Lead fields come from strangers on the internet, so a cell a spreadsheet could run as a
 * formula gets a leading apostrophe (OWASP's CSV injection advice). What a spreadsheet reads as
 * the start of a formula is =, +, -, @, or any character it may fold to one of those (full-width
 * ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, superscripts, the minus sign: NFKC folds them as such readers do),
 * found after whatever it may skip first: spaces of any kind, control characters (tab, CR, LF)
 * and invisible format characters (zero-width space U+200B, joiners, U+2060, the BOM...). A cell
 * that begins with one of those invisible characters (not a plain space) is defused whatever
 * follows, as OWASP asks for a leading tab or CR. A value made only of digits,
 * spaces and ( ) . - after an optional sign (a phone number such as "+1 555-0100", a negative
 * number) stays as is: without a letter or a symbol it can name no function and reach nothing.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** What a spreadsheet may skip before the first character it reads: white space, control and format characters. */
const SKIPPABLE = /^[\s\p{Cc}\p{Cf}]+/u;
/** After NFKC folding (＝ and ﹦ are =): the characters that start a formula. U+2212 is the minus sign. */
const FORMULA_SIGN = /^[=+\-@\u2212]/;
/** A cell that starts with an invisible character (tab, CR, U+200B...) is defused like one that starts with =. */
const HIDDEN_START = /^[\p{Cc}\p{Cf}]/u;
const NUMBER_LIKE = /^[+\-\u2212]?[\d\s().-]*$/;

/** Whether a cell's text could be read as a formula (so it is written with a leading apostrophe). */
export function mayRunAsFormula(text: string): boolean {
  const read = text.replace(SKIPPABLE, '');
  const first = read.codePointAt(0);
  const folded = first === undefined ? '' : String.fromCodePoint(first).normalize('NFKC');
  if (!FORMULA_SIGN.test(folded) && !HIDDEN_START.test(text)) return false;
  return !NUMBER_LIKE.test(read.normalize('NFKC'));
}

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (mayRunAsFormula(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Lets Excel read the file as UTF-8 (names with accents); other readers skip it. */
export const UTF8_BOM = '\uFEFF';
