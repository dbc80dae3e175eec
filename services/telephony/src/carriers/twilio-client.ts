// HTTP exchanges with a Twilio-compatible REST API on behalf of one account: form-encoded bodies,
// basic auth, JSON answers, all through the egress guard, with retries and the account's circuit
// breaker. What the answers mean is the adapter's business (twilio.ts).
import { sha256Hex } from '@voice/runtime/crypto';
import { EgressRefused, egressPolicy, guardedRequest, RequestFailed, type EgressPolicy, type GuardedResponse } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import { CarrierUnavailable } from './carrier.js';
import { CircuitOpen, type CircuitBreaker, type CircuitBreakers } from './resilience/circuit-breaker.js';
import { isOutage, isRetrySafe, statusFailure, transportFailure, type HttpFailure } from './resilience/http-failures.js';
import { withRetries, type RetrySettings } from './resilience/retry.js';

export interface TwilioAccount {
  /** Scheme and host (and optional path prefix) of the API, e.g. https://api.twilio.com. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
}

export interface TwilioClientSettings {
  breakers: CircuitBreakers;
  /** Let requests reach private and loopback addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** For one attempt, reading the answer included. */
  timeoutMs: number;
  retry: RetrySettings;
  /** Where the detail of a failed request goes (callers see only its reason). */
  logger?: Logger;
}

export interface TwilioRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path below the account's URL: "/Messages.json"; ".json" names the account itself. */
  resource: string;
  /** Undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** A list is sent as the field repeated, as Twilio takes lists (StatusCallbackEvent). */
  form?: Record<string, string | string[] | undefined>;
  /** A file rather than JSON (a recording): its bytes are kept, up to this many. */
  file?: { maxBytes: number };
}

/** An answer of the carrier: any status except 429 and 5xx, which are failures. */
export interface TwilioAnswer {
  status: number;
  /** The parsed body; undefined when it is empty, cut off or not JSON. */
  json: unknown;
  /** For a file request: the body as it came, its type, and whether it was longer than allowed. */
  file?: { bytes: Buffer; contentType: string; truncated: boolean };
}

const apiVersion = '2010-04-01';
const maxAnswerBytes = 1024 * 1024;

/** One attempt that got no answer; callers of TwilioClient only ever see CarrierUnavailable. */
class AttemptFailed extends CarrierUnavailable {
  constructor(readonly failure: HttpFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

function definedEntries(values: Record<string, string | string[] | undefined> | undefined): [string, string][] {
  return Object.entries(values ?? {}).flatMap(([name, value]): [string, string][] =>
    value === undefined ? [] : Array.isArray(value) ? value.map((each): [string, string] => [name, each]) : [[name, value]],
  );
}

function parseJson(text: string, truncated: boolean): unknown {
  if (truncated || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class TwilioClient {
  private readonly baseUrl: string;
  private readonly breaker: CircuitBreaker;
  private readonly policy: EgressPolicy;
  private readonly authorization: string;

  constructor(
    private readonly account: TwilioAccount,
    private readonly settings: TwilioClientSettings,
  ) {
    this.baseUrl = account.baseUrl.replace(/\/+$/, '');
    // Hashed so the account id does not sit in the registry's keys, where anything might print it.
    this.breaker = settings.breakers.breakerFor(sha256Hex(`${this.baseUrl}\n${account.accountSid}`));
    this.policy = egressPolicy({ allowPrivate: settings.allowPrivate });
    this.authorization = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
  }

  /** Sends the request (retried only where safe); resolves with the carrier's answer, or throws CarrierUnavailable. */
  async send(request: TwilioRequest): Promise<TwilioAnswer> {
    const url = this.urlOf(request);
    const idempotent = request.method !== 'POST';
    try {
      return await withRetries(
        () => this.breaker.run(() => this.attempt(request, url), (error) => error instanceof AttemptFailed && isOutage(error.failure)),
        (error) => error instanceof AttemptFailed && isRetrySafe(error.failure, idempotent),
        this.settings.retry,
      );
    } catch (error) {
      if (error instanceof CircuitOpen) throw new CarrierUnavailable(`the carrier is failing: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** The text with the account's id and token blanked out, fit for an error message. */
  redact(text: string): string {
    return [this.account.accountSid, this.account.authToken]
      .filter((secret) => secret !== '')
      .reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);
  }

  private urlOf(request: TwilioRequest): string {
    const path = `${this.baseUrl}/${apiVersion}/Accounts/${encodeURIComponent(this.account.accountSid)}${request.resource}`;
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      throw new CarrierUnavailable("the carrier connection's base URL is not a valid URL");
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CarrierUnavailable("the carrier connection's base URL must use http or https");
    for (const [name, value] of definedEntries(request.query)) url.searchParams.append(name, value);
    return url.href;
  }

  private async attempt(request: TwilioRequest, url: string): Promise<TwilioAnswer> {
    const headers: Record<string, string> = { authorization: this.authorization, accept: request.file ? '*/*' : 'application/json' };
    let body: string | undefined;
    if (request.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(definedEntries(request.form)).toString();
    }
    let response: GuardedResponse;
    try {
      response = await guardedRequest({
        method: request.method,
        url,
        headers,
        body,
        timeoutMs: this.settings.timeoutMs,
        policy: this.policy,
        // A recording may be served from the carrier's media storage (a redirect, each hop guarded,
        // the credentials kept to the carrier's own origin); API answers are never redirects.
        redirect: request.file ? 'follow' : 'manual',
        maxBodyBytes: request.file?.maxBytes ?? maxAnswerBytes,
        logger: this.settings.logger,
      });
    } catch (error) {
      throw this.unanswered(error);
    }
    const failure = statusFailure(response.status);
    if (failure) throw new AttemptFailed(failure, this.describe(failure));
    if (request.file) {
      const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
      return { status: response.status, json: undefined, file: { bytes: response.bytes, contentType, truncated: response.truncated } };
    }
    return { status: response.status, json: parseJson(response.body, response.truncated) };
  }

  private unanswered(error: unknown): Error {
    if (error instanceof EgressRefused) {
      return new CarrierUnavailable("the carrier connection's base URL points to an address the platform may not connect to");
    }
    if (!(error instanceof RequestFailed)) return error instanceof Error ? error : new Error(String(error));
    const failure = transportFailure(error);
    return new AttemptFailed(failure, this.describe(failure), { cause: error });
  }

  private describe(failure: HttpFailure): string {
    switch (failure.kind) {
      case 'not_connected':
        return 'could not connect to the carrier';
      case 'connection_lost':
        return 'the connection to the carrier broke before it answered';
      case 'timeout':
        return `the carrier did not answer within ${this.settings.timeoutMs} ms`;
      case 'invalid_response':
        return "the carrier's answer could not be read";
      case 'status':
        return failure.status === 429 ? 'the carrier is rate limiting requests (status 429)' : `the carrier failed (status ${failure.status})`;
    }
  }
}
