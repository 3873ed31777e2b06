import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';

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
});
