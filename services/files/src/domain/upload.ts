import { randomBytes } from 'node:crypto';
import { REPORT_FILE_TYPES, type ReportFileType } from '@homereport/contracts';
import { AppError, badRequest } from '@homereport/kit';
import { CONTENT_TYPES, HEAD_BYTES, contentMatches, isReportFileType, kindFromName } from './file-kinds.js';

/** One file part of an upload as the multipart parser hands it over. */
interface IncomingFile {
  fieldname: string;
  filename: string;
  file: AsyncIterable<Buffer> & { truncated?: boolean; resume(): unknown };
}

interface FileSink {
  put(
    key: string,
    source: AsyncIterable<Buffer>,
    meta: { contentType: string; originalName: string },
    beforeCommit: () => void,
  ): Promise<{ size: number }>;
  remove(key: string): Promise<void>;
}

export interface AcceptedFile {
  type: ReportFileType;
  key: string;
  name: string;
  contentType: string;
  size: number;
}

export const Messages = {
  noFile: 'Choose at least one file to upload (.pdf, .doc or .docx).',
  unknownPart: `Each file must be sent as ${REPORT_FILE_TYPES.slice(0, -1).join(', ')} or ${REPORT_FILE_TYPES.at(-1)}.`,
  twice: 'Send at most one file of each report type per upload.',
  badExtension: 'Only PDF, DOC and DOCX files can be uploaded.',
  badContent: 'This file is not a real PDF, DOC or DOCX document (its content does not match its extension).',
} as const;

const unsupportedType = (message: string) => new AppError(415, 'UNSUPPORTED_FILE_TYPE', message);
export const tooLarge = (maxBytes: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `Each file may be at most ${Math.floor(maxBytes / (1024 * 1024))} MB.`);

/** `<requestId>/<type>-<random>`: never the client's file name, so nothing in it can reach a path. */
export const objectKey = (requestId: string, type: ReportFileType) =>
  `${requestId}/${type}-${randomBytes(12).toString('base64url')}`;

/**
 * Reads the first HEAD_BYTES of a stream (or all of it, if shorter) and returns them with an
 * iterable that yields those bytes and then the rest, so the check and the upload read one stream.
 */
export async function peek(source: AsyncIterable<Buffer>, bytes: number) {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  const all: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      if (head.length > 0) yield head;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  return { head, all };
}

/**
 * Checks one part (name, extension, first bytes) and streams it to storage. Throws 400, 415 or
 * 413; a refused file never becomes an object.
 */
export async function acceptFile(
  part: IncomingFile,
  requestId: string,
  seen: Set<string>,
  sink: FileSink,
  maxBytes: number,
): Promise<AcceptedFile> {
  if (!isReportFileType(part.fieldname)) throw badRequest(Messages.unknownPart);
  if (seen.has(part.fieldname)) throw badRequest(Messages.twice);
  seen.add(part.fieldname);
  const type = part.fieldname;
  const kind = kindFromName(part.filename ?? '');
  if (!kind) throw unsupportedType(Messages.badExtension);
  const { head, all } = await peek(part.file, HEAD_BYTES);
  if (head.length === 0) throw badRequest(Messages.noFile);
  if (!contentMatches(kind, head)) throw unsupportedType(Messages.badContent);
  const key = objectKey(requestId, type);
  const name = part.filename.trim().slice(-255);
  const contentType = CONTENT_TYPES[kind];
  const { size } = await sink.put(key, all, { contentType, originalName: name }, () => {
    // The parser stops a file at the limit and marks it truncated; the upload is then aborted.
    if (part.file.truncated) throw tooLarge(maxBytes);
  });
  return { type, key, name, contentType, size };
}
