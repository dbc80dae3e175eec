// Failures of the API as typed errors: the `Error` component of the OpenAPI document (code, message,
// details) with the HTTP status and the request id to quote to support.
import type { components } from './generated/openapi.js';

export type ErrorEnvelope = components['schemas']['Error'];
/** The stable machine-readable codes of the API's errors. */
export type ErrorCode = ErrorEnvelope['error']['code'];
export type ErrorDetail = NonNullable<ErrorEnvelope['error']['details']>[number];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `body` has the shape of the API's error envelope. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string';
}

/** An answer of the API that is not a success. */
export class VoiceApiError extends Error {
  override readonly name = 'VoiceApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The API's error code; undefined when the answer carried no error envelope (e.g. a proxy's 502 page). */
  readonly code: ErrorCode | undefined;
  /** The fields an `invalid_request` names, with what is wrong with each. */
  readonly details: readonly ErrorDetail[];
  /** The `X-Request-Id` of the answer. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying, from `Retry-After` (429 and 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body.error : undefined;
    super(envelope ? envelope.message : `the API answered ${response.status} without an error envelope`);
    this.status = response.status;
    this.code = envelope?.code;
    this.details = envelope?.details ?? [];
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    this.retryAfterSeconds = Number.isNaN(retryAfter) ? undefined : retryAfter;
  }
}

/** What every openapi-fetch call answers: `data` on success, `error` otherwise. */
export interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; a failed one throws its VoiceApiError. */
export async function orThrow<Result extends CallResult>(call: Promise<Result> | Result): Promise<Exclude<Result['data'], undefined>> {
  const { data, error, response } = await call;
  if (!response.ok) throw new VoiceApiError(response, error);
  return data as Exclude<Result['data'], undefined>;
}
