// The one error type gateway code throws; the error handler turns it into the envelope.
import type { ErrorReason, FieldIssue } from '@voice/runtime/errors';
import { statusOfReason } from './status-table.js';

export class HttpError extends Error {
  constructor(
    readonly code: ErrorReason,
    message: string,
    readonly options: { status?: number; details?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  get status(): number {
    return this.options.status ?? statusOfReason[this.code];
  }
}

/** A known path asked with a method it does not take: 405 with the methods it does. */
export const methodNotAllowed = (allow: string): HttpError =>
  new HttpError('invalid_request', `method not allowed; this path allows ${allow}`, { status: 405, headers: { Allow: allow } });

export const badRequest = (details: FieldIssue[]): HttpError =>
  new HttpError('invalid_request', details.map((d) => `${d.field}: ${d.issue}`).join('; '), { details });

/** A byte range beyond a download's end: 416 with the Content-Range naming the size. */
export const rangeNotSatisfiable = (contentRange: string): HttpError =>
  new HttpError('invalid_request', 'the requested byte range is beyond the end of the file', { status: 416, headers: { 'Content-Range': contentRange } });
