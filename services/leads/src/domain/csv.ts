/**
 * CSV as RFC 4180 writes it: comma-separated, CRLF line ends, every field quoted and quotes
 * inside doubled. Quoting every field (not only those with a comma) keeps a `;` inside a cell
 * when a spreadsheet opens the file in a locale whose separator is `;`.
 *
 * Lead fields come from strangers on the internet, so a cell a spreadsheet would run as a
 * formula gets a leading apostrophe: one whose first character after any leading spaces is =, +,
 * -, @ (or their full-width forms, which some spreadsheets fold to ASCII), a tab or a CR. A value
 * made only of digits, spaces and ( ) . - (a phone number such as "+1 555-0100", a negative
 * number) stays as is: without a letter or a symbol it can name no function and reach nothing.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[\t\r]|^[ \u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const NUMBER_LIKE = /^[+-]?[\d\s().-]*$/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (FORMULA_START.test(text) && !NUMBER_LIKE.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Lets Excel read the file as UTF-8 (names with accents); other readers skip it. */
export const UTF8_BOM = '\uFEFF';
