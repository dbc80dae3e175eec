// Verifies the `Voice-Signature` header of a webhook delivery: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`,
// each v1 the hex HMAC-SHA256, keyed with a signing secret (`whsec_…`), of `<t>.<raw body>`. While a
// secret is being rotated the platform signs with both, so one matching v1 is enough. Web Crypto keeps
// it usable outside Node (edge functions, workers).

export type WebhookSignatureFailure = 'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** The request body exactly as received, before any JSON parsing. */
  payload: string | Uint8Array;
  /** The `Voice-Signature` header's value. */
  header: string | null | undefined;
  /** The endpoint's signing secret (`whsec_…`), or several while rotating. */
  secret: string | readonly string[];
  /** How far the signature's time may be from now, in seconds (300 by default); it bounds replays. */
  toleranceSeconds?: number;
  /** The current time in milliseconds since the epoch (tests); `Date.now()` by default. */
  now?: number;
}

export const signatureHeaderName = 'Voice-Signature';
const defaultToleranceSeconds = 300;
const encoder = new TextEncoder();

interface ParsedHeader {
  timestamp: number;
  signatures: Uint8Array[];
}

const hexDigest = /^[0-9a-f]{64}$/i;

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function parseHeader(header: string | null | undefined): ParsedHeader {
  if (!header) throw new WebhookSignatureError('malformed_header', `the ${signatureHeaderName} header is missing`);
  let timestamp: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (separator < 0) throw new WebhookSignatureError('malformed_header', `the ${signatureHeaderName} header has a part without "=": ${part.trim()}`);
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) throw new WebhookSignatureError('malformed_header', `the ${signatureHeaderName} header's t must be one integer of seconds`);
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!hexDigest.test(value)) throw new WebhookSignatureError('malformed_header', `a v1 in the ${signatureHeaderName} header is not 64 hex digits`);
      signatures.push(hexBytes(value));
    }
    // Other schemes (a future v2) are for clients that know them.
  }
  if (timestamp === undefined) throw new WebhookSignatureError('malformed_header', `the ${signatureHeaderName} header has no t`);
  if (signatures.length === 0) throw new WebhookSignatureError('malformed_header', `the ${signatureHeaderName} header has no v1 signature`);
  return { timestamp, signatures };
}

/** Compares in time that depends only on the lengths, which are public (32 bytes). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

async function hmacSha256(secret: string, message: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}

function signedContent(timestamp: number, payload: string | Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
}

/**
 * Checks a delivery's signature and answers the time it was signed (unix seconds); throws a
 * WebhookSignatureError saying why a delivery must be refused.
 */
export async function verifyWebhookSignature(options: VerifyWebhookOptions): Promise<{ timestamp: number }> {
  const toleranceSeconds = options.toleranceSeconds ?? defaultToleranceSeconds;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) throw new RangeError(`toleranceSeconds must be a number of at least 0, not ${toleranceSeconds}`);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0 || secrets.some((secret) => secret.length === 0)) throw new TypeError('secret must be a non-empty signing secret');
  const { timestamp, signatures } = parseHeader(options.header);
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError('timestamp_outside_tolerance', `the signature's time is ${nowSeconds - timestamp} s from now, beyond the tolerance of ${toleranceSeconds} s`);
  }
  const content = signedContent(timestamp, options.payload);
  for (const secret of secrets) {
    const expected = await hmacSha256(secret, content);
    // Every v1 is compared, so the time taken does not say which one matched.
    let matched = false;
    for (const signature of signatures) matched = constantTimeEqual(expected, signature) || matched;
    if (matched) return { timestamp };
  }
  throw new WebhookSignatureError('no_matching_signature', 'no v1 signature matches the payload and secret');
}
