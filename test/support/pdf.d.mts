/**
 * A small but real PDF (header, objects, cross-reference table, trailer), as the upload checks
 * bytes: one page per text given, each line of it in Helvetica (a font every reader has).
 */
export function pdfBytes(text: string | string[]): Buffer;
