import { REPORT_FILE_TYPES, type ReportFileType } from '@homereport/contracts';

/**
 * What a report file may be: a PDF, a Word 97-2003 document (OLE compound file) or a Word
 * document (Office Open XML, a zip holding `word/` parts). The extension names the kind and the
 * first bytes must prove it; the client's Content-Type is never trusted.
 */
type FileKind = 'pdf' | 'doc' | 'docx';

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** How much of a file's start is read before deciding (a zip's first entries sit within it). */
export const HEAD_BYTES = 64 * 1024;

export function isReportFileType(name: string): name is ReportFileType {
  return (REPORT_FILE_TYPES as readonly string[]).includes(name);
}

export function kindFromName(fileName: string): FileKind | null {
  const match = /\.([a-z0-9]+)$/i.exec(fileName.trim());
  const ext = match?.[1]?.toLowerCase();
  return ext === 'pdf' || ext === 'doc' || ext === 'docx' ? ext : null;
}

const PDF = Buffer.from('%PDF-', 'latin1');
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const WORD_DIR = Buffer.from('word/', 'latin1');

/** Whether `head` (the first bytes, up to HEAD_BYTES) is really a file of `kind`. */
export function contentMatches(kind: FileKind, head: Buffer): boolean {
  switch (kind) {
    case 'pdf':
      return head.subarray(0, PDF.length).equals(PDF);
    case 'doc':
      return head.subarray(0, OLE.length).equals(OLE);
    case 'docx':
      return head.subarray(0, 4).equals(ZIP_LOCAL_HEADER) && hasWordEntry(head);
  }
}

/**
 * A Word document's zip holds `word/document.xml` and friends, written near the start. Each
 * entry begins with a local file header (signature, then the name's length at offset 26 and the
 * name at offset 30); looking for any header whose name starts with `word/` also copes with
 * entries whose sizes follow their data (general purpose flag bit 3).
 */
function hasWordEntry(head: Buffer): boolean {
  for (let at = head.indexOf(ZIP_LOCAL_HEADER); at >= 0; at = head.indexOf(ZIP_LOCAL_HEADER, at + 4)) {
    if (at + 30 > head.length) return false;
    const nameLength = head.readUInt16LE(at + 26);
    const name = head.subarray(at + 30, Math.min(head.length, at + 30 + nameLength));
    if (name.subarray(0, WORD_DIR.length).equals(WORD_DIR)) return true;
  }
  return false;
}

/** `inline` (opens in the browser's viewer) with the original name, safely quoted for any browser. */
export function contentDisposition(originalName: string): string {
  const fallback = originalName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `inline; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(originalName)}`;
}
