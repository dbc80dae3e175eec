// Turns every failure under /api/v1 into the error envelope; anything unexpected becomes a
// logged 500 that says only internal_error and the request id.
import type { ErrorRequestHandler, Response } from 'express';
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf, type ErrorReason, type FieldIssue, type Logger } from '@voice/runtime';
import { HttpError } from './http-error.js';
import { effectiveCode, mappingOfCode, statusOfReason } from './status-table.js';

interface Envelope {
  status: number;
  code: ErrorReason;
  message: string;
  details?: FieldIssue[];
  headers?: Record<string, string>;
}

export function sendError(res: Response, envelope: Envelope): void {
  for (const [name, value] of Object.entries(envelope.headers ?? {})) res.setHeader(name, value);
  const error: Record<string, unknown> = { code: envelope.code, message: envelope.message };
  if (envelope.details && envelope.details.length > 0) error.details = envelope.details;
  res.status(envelope.status).json({ error });
}

function fromConnect(error: ConnectError): Envelope {
  const detail = errorDetailOf(error);
  if (detail.reason) {
    const status = statusOfReason[detail.reason];
    const headers = status === 503 ? { 'Retry-After': '1' } : undefined;
    return { status, code: detail.reason, message: error.rawMessage, details: detail.fields, headers };
  }
  const mapping = mappingOfCode[effectiveCode(error)];
  return {
    status: mapping.status,
    code: mapping.reason,
    message: mapping.message ?? error.rawMessage,
    headers: mapping.status === 503 ? { 'Retry-After': '1' } : undefined,
  };
}

/** Errors raised by express's JSON parser (body-parser), by their `type`. */
function fromBodyParser(error: { type?: string; status?: number }): Envelope | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return { status: 413, code: 'invalid_request', message: 'the request body is larger than 1 MiB' };
    case 'entity.parse.failed':
      return { status: 400, code: 'invalid_request', message: 'the request body is not valid JSON', details: [{ field: 'body', issue: 'is not valid JSON' }] };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 400, code: 'invalid_request', message: 'the request body must be UTF-8 JSON' };
    case 'request.aborted':
      return { status: 400, code: 'invalid_request', message: 'the request body was not received completely' };
    default:
      return undefined;
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let envelope: Envelope | undefined;
    if (error instanceof HttpError) {
      envelope = { status: error.status, code: error.code, message: error.message, details: error.options.details, headers: error.options.headers };
    } else if (error instanceof ConnectError) {
      envelope = fromConnect(error);
    } else if (typeof error === 'object' && error !== null) {
      envelope = fromBodyParser(error as { type?: string });
    }
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    if (!envelope || envelope.status >= 500) {
      logger.error('request failed', { request_id: requestId, method: req.method, path: req.path, error });
    }
    if (!envelope || envelope.status === 500) {
      envelope = { status: 500, code: 'internal_error', message: `internal error (request ${requestId})` };
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, envelope);
  };
}
