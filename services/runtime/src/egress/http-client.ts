// One outbound HTTP(S) request of a tool test run, with the egress guard checked on every hop.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Logger } from '../logger.js';
import { EgressRefused, guardedLookup, literalAddress, type EgressPolicy } from './egress.js';
import { networkFailureMessages, networkFailureReasonOf, type NetworkFailureReason } from './network-failure.js';

export type RequestFailureCode = NetworkFailureReason;

/**
 * The request did not produce a usable response; `code` says why. The message is safe to show a
 * caller (no address, port or library detail); the raw error is the cause, for the log.
 */
export class RequestFailed extends Error {
  constructor(readonly code: RequestFailureCode, message: string = networkFailureMessages[code], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RequestFailed';
  }
}

export interface GuardedRequestOptions {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** For the whole request, redirects and reading the body included. */
  timeoutMs: number;
  policy: EgressPolicy;
  /** 'manual' hands a redirect response back as it is instead of following it. */
  redirect?: 'follow' | 'manual';
  maxRedirects?: number;
  maxBodyBytes?: number;
  /** Aborting it stops the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Where a failure's detail goes (the caller sees only its reason): the service's logger. */
  logger?: Logger;
  /**
   * Keeps the connection for the next request to the same origin (webhook deliveries: a new
   * connection per request cost both ends ~0.2 ms of CPU). The pool is private to guarded requests
   * under this policy, so every pooled socket was opened through its guard.
   */
  keepAlive?: boolean;
}

export interface GuardedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The same body as it came, for answers that are not text (a PDF). */
  bytes: Buffer;
  truncated: boolean;
  /** The URL that answered, after any redirects. */
  url: string;
}

interface Hop {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export async function guardedRequest(options: GuardedRequestOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new RequestFailed('timeout', `the server sent no complete answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  let host: string | undefined;
  try {
    let hop: Hop = { method: options.method.toUpperCase(), url: parseUrl(options.url), headers: options.headers, body: options.body };
    for (let followed = 0; ; followed++) {
      host = hop.url.host;
      const response = await sendRetryingStaleConnections(hop, options, signal);
      const location = response.headers['location'];
      if (options.redirect === 'manual' || !redirectStatuses.has(response.status) || location === undefined) return response;
      if (followed >= maxRedirects) throw new RequestFailed('bad_response', `the server redirected more than ${maxRedirects} times`);
      hop = nextHop(hop, response.status, location);
    }
  } catch (error) {
    if (error instanceof RequestFailed) options.logger?.warn('outbound request failed', { reason: error.code, host, error: error.cause ?? error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(text: string): URL {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`only http and https URLs are supported, not ${url.protocol}`);
  return url;
}

function nextHop(previous: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, previous.url);
  } catch {
    throw new RequestFailed('bad_response', 'the server redirected to an invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RequestFailed('bad_response', `the server redirected to a ${url.protocol} URL, which is not followed`);
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && previous.method === 'POST');
  // Caller headers may carry credentials meant only for the origin they were configured for.
  let headers = url.origin === previous.url.origin ? previous.headers : {};
  if (toGet) {
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
  }
  return { method: toGet ? 'GET' : previous.method, url, headers, body: toGet ? undefined : previous.body };
}

/** A kept connection is closed after this long idle, before the common servers' own 5 s (the API's description says so). */
export const keptConnectionIdleMs = 4_000;
/** A request on a kept connection that the server had closed meanwhile is sent again on a new one, this often at most. */
const staleConnectionRetries = 2;

const pools = new WeakMap<EgressPolicy, { 'http:': http.Agent; 'https:': https.Agent }>();

function pooledAgent(policy: EgressPolicy, protocol: string): http.Agent {
  let pool = pools.get(policy);
  if (!pool) {
    const options = { keepAlive: true, timeout: keptConnectionIdleMs };
    pool = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) };
    pools.set(policy, pool);
  }
  return protocol === 'https:' ? pool['https:'] : pool['http:'];
}

/** The server closed a kept connection as the request went out: nothing was answered, so it can go again. */
class StaleConnection extends Error {
  constructor(readonly failure: unknown) {
    super('the kept connection was closed by the server');
  }
}

const staleConnectionCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

async function sendRetryingStaleConnections(hop: Hop, options: GuardedRequestOptions, signal: AbortSignal): Promise<GuardedResponse> {
  const agent = options.keepAlive ? pooledAgent(options.policy, hop.url.protocol) : false;
  for (let retries = 0; ; retries++) {
    try {
      return await send(hop, options.policy, options.maxBodyBytes ?? 65_536, signal, agent);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      if (retries >= staleConnectionRetries) throw classify(error.failure, signal);
    }
  }
}

/** One request/response exchange; the destination is checked before a single byte is sent. */
function send(hop: Hop, policy: EgressPolicy, maxBodyBytes: number, signal: AbortSignal, agent: http.Agent | false): Promise<GuardedResponse> {
  signal.throwIfAborted();
  // Node connects to an IP-literal host without calling `lookup`, so literals are checked here.
  const literal = literalAddress(hop.url.hostname);
  if (literal !== undefined && !policy.isAllowed(literal)) throw new EgressRefused(hop.url.hostname, literal);

  return new Promise<GuardedResponse>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    let answered = false;
    const fail = (error: unknown) =>
      settle(() => {
        request.destroy();
        const stale = request.reusedSocket && !answered && !signal.aborted && staleConnectionCodes.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
        reject(stale ? new StaleConnection(error) : classify(error, signal));
      });
    const onAbort = () => fail(signal.reason);

    const headers: Record<string, string> = { ...hop.headers };
    if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
    const transport = hop.url.protocol === 'https:' ? https : http;
    // Never the global agent: a pooled socket could have been opened by unguarded code to another address.
    let request: http.ClientRequest;
    try {
      request = transport.request(hop.url, { method: hop.method, headers, agent, lookup: guardedLookup(policy) });
    } catch (error) {
      // Node refuses some requests synchronously (an invalid header character, for one).
      settled = true;
      reject(new RequestFailed('bad_response', `the request could not be sent: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.on('response', (response) => {
      answered = true;
      if (redirectStatuses.has(response.statusCode ?? 0) && response.headers.location !== undefined) {
        response.destroy();
        settle(() => resolve(toResponse(hop.url, response, Buffer.alloc(0), false)));
        return;
      }
      readBody(response, maxBodyBytes, (error, body, truncated) => {
        if (error) return fail(error);
        settle(() => resolve(toResponse(hop.url, response, body, truncated)));
      });
    });
    request.end(hop.body);
  });
}

function readBody(response: IncomingMessage, maxBytes: number, done: (error: Error | null, body: Buffer, truncated: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const text = () => Buffer.concat(chunks);
  response.on('data', (chunk: Buffer) => {
    if (size + chunk.length <= maxBytes) {
      chunks.push(chunk);
      size += chunk.length;
      return;
    }
    chunks.push(chunk.subarray(0, maxBytes - size));
    size = maxBytes;
    // The rest is not wanted, so it is not downloaded either.
    response.destroy();
    done(null, text(), true);
  });
  response.on('error', (error) => done(error, Buffer.alloc(0), false));
  response.on('end', () => done(null, text(), false));
}

function toResponse(url: URL, response: IncomingMessage, bytes: Buffer, truncated: boolean): GuardedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode ?? 0, headers, body: bytes.toString('utf8'), bytes, truncated, url: url.href };
}

function classify(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof EgressRefused || error instanceof RequestFailed) return error;
  return new RequestFailed(networkFailureReasonOf(error), undefined, { cause: error });
}
