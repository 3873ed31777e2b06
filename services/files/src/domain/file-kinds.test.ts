import { describe, expect, it } from 'vitest';
import { contentDisposition, contentMatches, kindFromName } from './file-kinds.js';

/** A zip local file header for an entry called `name` (no data). */
const zipEntry = (name: string) => {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return Buffer.concat([header, Buffer.from(name)]);
};

describe('report file kinds', () => {
  it('takes the kind from the extension, case-insensitively', () => {
    expect(kindFromName('Report.PDF')).toBe('pdf');
    expect(kindFromName('a.doc')).toBe('doc');
    expect(kindFromName('a.docx')).toBe('docx');
    expect(kindFromName('a.txt')).toBeNull();
    expect(kindFromName('pdf')).toBeNull();
  });

  it('checks the first bytes against the kind', () => {
    expect(contentMatches('pdf', Buffer.from('%PDF-1.7\n...'))).toBe(true);
    expect(contentMatches('pdf', Buffer.from('hello, I am text'))).toBe(false);
    expect(contentMatches('doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]))).toBe(true);
    expect(contentMatches('doc', Buffer.from('%PDF-1.7'))).toBe(false);
  });

  it('wants a zip with a word/ entry for .docx', () => {
    const docx = Buffer.concat([
      zipEntry('[Content_Types].xml'),
      zipEntry('_rels/.rels'),
      zipEntry('word/document.xml'),
    ]);
    expect(contentMatches('docx', docx)).toBe(true);
    const xlsx = Buffer.concat([zipEntry('[Content_Types].xml'), zipEntry('xl/workbook.xml')]);
    expect(contentMatches('docx', xlsx)).toBe(false);
    expect(contentMatches('docx', Buffer.from('PK'))).toBe(false);
  });

  it('quotes any file name into a safe Content-Disposition', () => {
    expect(contentDisposition('Résumé "final".pdf')).toBe(
      `inline; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
  });
});
