import { deflateRawSync } from 'node:zlib';
import { api } from '../../../test/support/api.js';

export { coveredRequest, session, submit, uniqueAddress, useAdmin } from '../../requests/test/support.js';

/** A small but real PDF. */
export const pdf = (text = 'HomeReport test report') =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );

/** The start of a Word 97-2003 (OLE compound) file: its signature and a header's worth of bytes. */
export const doc = () =>
  Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0)]);

/** A zip with the parts a Word document has (deflated, as Word writes them). */
export function docx(): Buffer {
  const entries: [string, string][] = [
    ['[Content_Types].xml', '<?xml version="1.0"?><Types/>'],
    ['_rels/.rels', '<?xml version="1.0"?><Relationships/>'],
    ['word/document.xml', '<?xml version="1.0"?><w:document><w:body><w:p>Report</w:p></w:body></w:document>'],
  ];
  const locals: Buffer[] = [];
  for (const [name, text] of entries) {
    const data = deflateRawSync(Buffer.from(text));
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(Buffer.byteLength(text), 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    locals.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(locals);
}

export type Part = { field: string; name: string; content: Buffer; type?: string };

export function form(parts: Part[]): FormData {
  const data = new FormData();
  for (const p of parts)
    data.append(p.field, new Blob([p.content], { type: p.type ?? 'application/octet-stream' }), p.name);
  return data;
}

export const upload = (id: string, token: string, parts: Part[]) =>
  api('POST', `/api/admin/requests/${id}/upload`, { token, raw: form(parts) });
