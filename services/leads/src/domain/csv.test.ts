import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, mayRunAsFormula } from './csv.js';

describe('csv', () => {
  it('quotes every field, doubling inner quotes', () => {
    expect(csvCell('Smith, "Jo"\nJr')).toBe('"Smith, ""Jo""\nJr"');
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell(' edge')).toBe('" edge"');
  });

  it('keeps a semicolon inside its cell, so a ;-separated locale cannot start a new cell there', () => {
    expect(csvCell("x;=cmd|' /C calc'!A0")).toBe(`"x;=cmd|' /C calc'!A0"`);
  });

  it('writes empty quoted cells for null and CRLF at the end of a row', () => {
    expect(csvRow(['a', null, true, 3])).toBe('"a","","true","3"\r\n');
  });

  it('defuses formulas but leaves phone numbers and negative numbers alone', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('+1 (555) 010-0100')).toBe('"+1 (555) 010-0100"');
    expect(csvCell('-cmd')).toBe(`"'-cmd"`);
    expect(csvCell('-12.5')).toBe('"-12.5"');
    expect(csvCell('\tcmd')).toBe(`"'\tcmd"`);
  });

  it('defuses formulas behind leading spaces and in full-width forms', () => {
    expect(csvCell('   =1+1')).toBe(`"'   =1+1"`);
    expect(csvCell('＝HYPERLINK("http://x")')).toBe(`"'＝HYPERLINK(""http://x"")"`);
    expect(csvCell(' ＋cmd')).toBe(`"' ＋cmd"`);
    expect(csvCell('＠SUM(A1)')).toBe(`"'＠SUM(A1)"`);
  });

  // Issue 38: every character a spreadsheet may read as =, +, -, @ or skip before one.
  it.each([
    ['=', '=cmd'],
    ['+', '+cmd'],
    ['-', '-cmd'],
    ['@', '@SUM(A1)'],
    ['tab', '\tcmd'],
    ['CR', '\rcmd'],
    ['LF', '\n=cmd'],
    ['U+200B zero-width space', '\u200Bhello'],
    ['U+200B before =', '\u200B=HYPERLINK("http://x")'],
    ['U+200C zero-width non-joiner', '\u200C=cmd'],
    ['U+200D zero-width joiner', '\u200D=cmd'],
    ['U+2060 word joiner', '\u2060=cmd'],
    ['U+FEFF byte order mark', '\uFEFF=cmd'],
    ['U+00AD soft hyphen', '\u00AD=cmd'],
    ['U+202E right-to-left override', '\u202E=cmd'],
    ['no-break space before =', '\u00A0=cmd'],
    ['ideographic space before =', '\u3000=cmd'],
    ['U+FE66 small equals ﹦', '﹦cmd'],
    ['U+FF1D full-width equals ＝', '＝cmd'],
    ['U+FF0B full-width plus ＋', '＋cmd'],
    ['U+FE62 small plus ﹢', '﹢cmd'],
    ['U+FF0D full-width minus －', '－cmd'],
    ['U+FE63 small minus ﹣', '﹣cmd'],
    ['U+FF20 full-width at ＠', '＠SUM(A1)'],
    ['U+FE6B small at ﹫', '﹫SUM(A1)'],
    ['U+2212 minus sign', '\u2212cmd'],
    ['U+207A superscript plus', '\u207Acmd'],
    ['U+208C subscript equals', '\u208Ccmd'],
    ['spaces then zero-width then full-width equals', '  \u200B＝1+1'],
  ])('defuses a cell starting with %s', (_name, value) => {
    expect(mayRunAsFormula(value)).toBe(true);
    expect(csvCell(value)).toBe(`"'${value.replaceAll('"', '""')}"`);
  });

  it.each([
    ['a name', 'Jo Smith'],
    ['a leading space before a word', ' edge'],
    ['a phone number', '+1 (555) 010-0100'],
    ['a full-width phone number', '＋１ ５５５ ０１００'],
    ['a negative number', '-12.5'],
    ['a hidden character before a phone number', '\u200B+1 555 0100'],
    ['an equals sign inside', 'a=b'],
    ['an empty cell', ''],
  ])('leaves %s alone', (_name, value) => {
    expect(mayRunAsFormula(value)).toBe(false);
    expect(csvCell(value)).toBe(`"${value}"`);
  });
});
