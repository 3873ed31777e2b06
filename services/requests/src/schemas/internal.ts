import { ReportFileType } from '@homereport/contracts';
import { type Static, Type } from '@sinclair/typebox';

/** Calls between our own services (files → requests); the gateway never routes /internal. */

export const StoredFile = Type.Object(
  {
    type: ReportFileType,
    key: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}/[A-Za-z0-9_-]{1,80}$' }),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    contentType: Type.String({ minLength: 1, maxLength: 120 }),
    size: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type StoredFile = Static<typeof StoredFile>;

export const RecordFilesBody = Type.Object(
  { files: Type.Array(StoredFile, { minItems: 1, maxItems: 4 }) },
  { additionalProperties: false },
);
export type RecordFilesBody = Static<typeof RecordFilesBody>;

export const RequestExistsReply = Type.Object({ id: Type.String(), status: Type.String() });
