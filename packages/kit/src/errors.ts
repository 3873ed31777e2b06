import { Type } from '@sinclair/typebox';

/**
 * The error catalogue. Domain code throws these; the one error handler renders them as
 * `{ error, code }` with their status. Anything else is a 5xx whose cause is logged, never shown.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: { details?: unknown[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown[]) =>
  new AppError(400, 'BAD_REQUEST', message, { details });
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do this.', code = 'FORBIDDEN') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait and try again.') =>
  new AppError(429, 'RATE_LIMITED', message, { retryAfterSeconds });

/** The body of every error response, for route schemas (and so the OpenAPI document). */
export const ErrorReply = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  details: Type.Optional(Type.Array(Type.Unknown())),
});

/** An error as a log line names it: its type and message. */
export const namedError = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);
