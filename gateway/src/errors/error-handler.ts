// Turns every failure under /api/v1 into the error envelope; anything unexpected becomes a
// logged 500 that says only internal_error and the request id.
import type { ErrorRequestHandler, Response } from 'express';
import { ConnectError } from '@connectrpc/connect';
import { errorDetailOf, type ErrorReason, type FieldIssue } from '@voice/runtime/errors';
import type { Logger } from '@voice/runtime/logger';
import { bodyParserFailure, type BodyParserFailure } from './body-parser.js';
import { maxBodyText } from '../middleware/json-body.js';
import { routeTemplateOf } from '../middleware/route-template.js';
import { HttpError } from './http-error.js';
import { isMalformedPathEncoding, malformedPathMessage } from './path-encoding.js';
import { effectiveCode, mappingOfCode, publicCodeOfReason, statusOfReason } from './status-table.js';

export interface Envelope {
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
    const headers = detail.retryAfterSeconds ? { 'Retry-After': String(detail.retryAfterSeconds) } : undefined;
    return { status: statusOfReason[detail.reason], code: publicCodeOfReason(detail.reason), message: error.rawMessage, details: detail.fields, headers };
  }
  const mapping = mappingOfCode[effectiveCode(error)];
  return { status: mapping.status, code: mapping.reason, message: mapping.message ?? error.rawMessage };
}

/** REST bodies are JSON of at most maxBodyBytes, so the API can say precisely what was wrong. */
const restPhrasing: Partial<Record<BodyParserFailure['kind'], string>> = {
  too_large: `the request body is larger than ${maxBodyText}`,
  malformed: 'the request body is not valid JSON',
  charset: 'the request body must be UTF-8 JSON',
};

function fromBodyParser(error: unknown): Envelope | undefined {
  const failure = bodyParserFailure(error);
  if (!failure) return undefined;
  const details = failure.kind === 'malformed' ? [{ field: 'body', issue: 'is not valid JSON' }] : undefined;
  return { status: failure.status, code: 'invalid_request', message: restPhrasing[failure.kind] ?? failure.message, details };
}

/** The envelope for any failure; undefined when it is not one the API can explain (a 500). */
export function envelopeOf(error: unknown): Envelope | undefined {
  if (error instanceof HttpError) {
    return { status: error.status, code: error.code, message: error.message, details: error.options.details, headers: error.options.headers };
  }
  if (error instanceof ConnectError) return fromConnect(error);
  if (isMalformedPathEncoding(error)) return { status: 404, code: 'not_found', message: malformedPathMessage };
  return fromBodyParser(error);
}

/** The envelope a client may see: anything unexplained, or explained as a 500, says only internal_error and the request id. */
export const publicEnvelopeOf = (error: unknown, requestId: string): Envelope => publicEnvelope(envelopeOf(error), requestId);

function publicEnvelope(envelope: Envelope | undefined, requestId: string): Envelope {
  if (!envelope || envelope.status === 500) return { status: 500, code: 'internal_error', message: `internal error (request ${requestId})` };
  // A service that is briefly away: tell clients when to try again.
  if (envelope.status === 503) return { ...envelope, headers: { 'Retry-After': '1', ...envelope.headers } };
  return envelope;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    const explained = envelopeOf(error);
    if (!explained || explained.status >= 500) {
      logger.error('request failed', { request_id: requestId, method: req.method, route: routeTemplateOf(res), error });
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, publicEnvelope(explained, requestId));
  };
}
