// The webhook signature check against signatures made here with node:crypto, the way the platform
// signs: hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's secret.
import { createHmac } from 'node:crypto';
import { verifyWebhookSignature, WebhookSignatureError, type WebhookSignatureFailure } from '../src/index.js';

const secret = 'whsec_5KkT0rVqz3cW8yN1pL6mD2xJ4hB7gF9s';
const oldSecret = 'whsec_Qw2Er4Ty6Ui8Op0As1Df3Gh5Jk7Lz9Xc';
const payload = '{"id":"7d3c2b1a-0f9e-4d8c-b7a6-958473625140","type":"call.ended","data":{"duration_seconds":42}}';
const signedAt = 1_795_000_000;
const now = signedAt * 1000;

const sign = (key: string, body: string | Buffer, t = signedAt) => createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
const header = (...signatures: string[]) => [`t=${signedAt}`, ...signatures.map((s) => `v1=${s}`)].join(',');

async function failure(promise: Promise<unknown>): Promise<WebhookSignatureFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookSignatureError);
  return (error as WebhookSignatureError).reason;
}

describe('verifyWebhookSignature', () => {
  test('accepts a signature of the raw body with the secret and answers its time', async () => {
    await expect(verifyWebhookSignature({ payload, header: header(sign(secret, payload)), secret, now })).resolves.toEqual({ timestamp: signedAt });
  });

  test('accepts the body as bytes, and upper-case hex', async () => {
    const bytes = Buffer.from(payload);
    await expect(verifyWebhookSignature({ payload: new Uint8Array(bytes), header: header(sign(secret, bytes).toUpperCase()), secret, now })).resolves.toEqual({ timestamp: signedAt });
  });

  test('during a rotation any one v1 may match: the new secret signs beside the old one', async () => {
    const rotating = header(sign(oldSecret, payload), sign(secret, payload));
    await expect(verifyWebhookSignature({ payload, header: rotating, secret, now })).resolves.toEqual({ timestamp: signedAt });
    await expect(verifyWebhookSignature({ payload, header: rotating, secret: oldSecret, now })).resolves.toEqual({ timestamp: signedAt });
    // A receiver that holds both secrets accepts a delivery signed with either.
    await expect(verifyWebhookSignature({ payload, header: header(sign(oldSecret, payload)), secret: [secret, oldSecret], now })).resolves.toEqual({ timestamp: signedAt });
  });

  test('refuses a changed body, another secret, a signature of another time', async () => {
    expect(await failure(verifyWebhookSignature({ payload: payload.replace('42', '43'), header: header(sign(secret, payload)), secret, now }))).toBe('no_matching_signature');
    expect(await failure(verifyWebhookSignature({ payload, header: header(sign(oldSecret, payload)), secret, now }))).toBe('no_matching_signature');
    // The time is signed: moving t (within the tolerance) breaks the signature.
    const moved = `t=${signedAt + 1},v1=${sign(secret, payload)}`;
    expect(await failure(verifyWebhookSignature({ payload, header: moved, secret, now }))).toBe('no_matching_signature');
  });

  test('refuses a time beyond the tolerance either way, 300 s by default, and takes another tolerance', async () => {
    const signed = header(sign(secret, payload));
    await expect(verifyWebhookSignature({ payload, header: signed, secret, now: now + 300_000 })).resolves.toEqual({ timestamp: signedAt });
    await expect(verifyWebhookSignature({ payload, header: signed, secret, now: now - 300_000 })).resolves.toEqual({ timestamp: signedAt });
    expect(await failure(verifyWebhookSignature({ payload, header: signed, secret, now: now + 301_000 }))).toBe('timestamp_outside_tolerance');
    expect(await failure(verifyWebhookSignature({ payload, header: signed, secret, now: now - 301_000 }))).toBe('timestamp_outside_tolerance');
    expect(await failure(verifyWebhookSignature({ payload, header: signed, secret, now: now + 11_000, toleranceSeconds: 10 }))).toBe('timestamp_outside_tolerance');
    await expect(verifyWebhookSignature({ payload, header: signed, secret, now: now + 3_600_000, toleranceSeconds: 3600 })).resolves.toEqual({ timestamp: signedAt });
  });

  test('refuses a missing or malformed header, naming what is wrong', async () => {
    const good = sign(secret, payload);
    const cases: [string | undefined, RegExp][] = [
      [undefined, /missing/],
      ['', /missing/],
      [`v1=${good}`, /no t/],
      [`t=${signedAt}`, /no v1/],
      [`t=${signedAt},v1=${good.slice(0, 63)}`, /64 hex digits/],
      [`t=${signedAt},v1=${good.slice(0, 62)}zz`, /64 hex digits/],
      [`t=soon,v1=${good}`, /integer/],
      [`t=${signedAt},t=${signedAt},v1=${good}`, /one integer/],
      [`t=${signedAt};v1=${good}`, /integer/],
      [`t=${signedAt},${good}`, /without "="/],
    ];
    for (const [value, message] of cases) {
      const error = await verifyWebhookSignature({ payload, header: value, secret, now }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({ reason: 'malformed_header', message: expect.stringMatching(message) });
    }
  });

  test('ignores schemes it does not know beside a v1', async () => {
    const signed = `t=${signedAt},v0=abc,v1=${sign(secret, payload)}`;
    await expect(verifyWebhookSignature({ payload, header: signed, secret, now })).resolves.toEqual({ timestamp: signedAt });
  });

  test('refuses options that cannot verify anything', async () => {
    const signed = header(sign(secret, payload));
    await expect(verifyWebhookSignature({ payload, header: signed, secret: '', now })).rejects.toThrow(TypeError);
    await expect(verifyWebhookSignature({ payload, header: signed, secret: [], now })).rejects.toThrow(TypeError);
    await expect(verifyWebhookSignature({ payload, header: signed, secret, now, toleranceSeconds: -1 })).rejects.toThrow(RangeError);
  });
});
