/**
 * CSV as RFC 4180 writes it: comma-separated, CRLF line ends, a field quoted when it holds a
 * comma, a quote, a line break or edge spaces, quotes inside doubled. Lead fields come from
 * strangers on the internet, so a cell a spreadsheet would run as a formula (starting with =,
 * @, +, - or a tab/CR) gets a leading apostrophe; a phone number such as "+1 555-0100" stays as is.
 */

export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
const FORMULA_START = /^[=@\t\r+-]/;
const NUMBER_LIKE = /^[+-]?[\d\s().-]*$/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !NUMBER_LIKE.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Lets Excel read the file as UTF-8 (names with accents); other readers skip it. */
export const UTF8_BOM = '\uFEFF';
