// Idempotency-Key rules: key validity, the request fingerprint and the 24 h window.
import { createHash } from 'node:crypto';
import { canonicalJson, claimBinding, idempotencyClaim, idempotencyExpiry, idempotencyWindowMs, isValidIdempotencyKey, requestFingerprint } from '../src/idempotency.js';

describe('canonicalJson', () => {
  test('object key order does not matter', () => {
    expect(canonicalJson({ b: 1, a: 2, c: { z: 1, y: 2 } })).toBe(canonicalJson({ c: { y: 2, z: 1 }, a: 2, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  test('nested arrays keep their order; objects inside them are sorted', () => {
    expect(canonicalJson({ list: [3, 1, { y: [true, null], x: 'v' }] })).toBe('{"list":[3,1,{"x":"v","y":[true,null]}]}');
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  test('undefined properties are dropped; undefined in an array is null, as in JSON', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  test('scalars and keys are JSON-escaped', () => {
    expect(canonicalJson('a"b\n')).toBe('"a\\"b\\n"');
    expect(canonicalJson({ 'we"ird': 1 })).toBe('{"we\\"ird":1}');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(false)).toBe('false');
  });

  test('the output is valid JSON equal to the input', () => {
    const value = { z: [1, { b: 'x', a: null }], a: { nested: { deep: 'yes' } }, n: -0.25 };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  test('keys sort by code unit, not locale', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, _: 4 })).toBe('{"B":2,"_":4,"a":3,"b":1}');
  });
});

describe('requestFingerprint', () => {
  test('is the SHA-256 of the canonical JSON', () => {
    const body = { to: '+15551234567', text: 'hi' };
    expect(requestFingerprint(body)).toBe(createHash('sha256').update('{"text":"hi","to":"+15551234567"}').digest('hex'));
  });

  test('equal requests match whatever their key order', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestFingerprint({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  test('any difference in value changes the fingerprint', () => {
    const base = requestFingerprint({ a: 1, b: [1, 2] });
    expect(requestFingerprint({ a: 2, b: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ a: 1, b: [2, 1] })).not.toBe(base);
    expect(requestFingerprint({ a: '1', b: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ a: 1, b: [1, 2], c: null })).not.toBe(base);
    expect(requestFingerprint({ a: 1 })).not.toBe(base);
  });
});

describe('isValidIdempotencyKey', () => {
  test('1 to 255 characters are accepted', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('0b5f3c1e-2a4d-4e6f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isValidIdempotencyKey('with spaces and ünïcødé')).toBe(true);
  });

  test('empty or longer than 255 is refused', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('x'.repeat(256))).toBe(false);
  });

  test.each(['\u0000', '\t', '\n', '\r', '\u001f', '\u007f'])('a control character (%j) is refused', (control) => {
    expect(isValidIdempotencyKey(`key${control}suffix`)).toBe(false);
  });
});

describe('idempotencyExpiry', () => {
  test('is 24 hours before now, as an ISO string', () => {
    expect(idempotencyWindowMs).toBe(86_400_000);
    expect(idempotencyExpiry(new Date('2026-11-21T10:00:00.000Z'))).toBe('2026-11-20T10:00:00.000Z');
  });

  test('sorts as strings the same way as the instants it stands for', () => {
    const now = new Date('2026-03-01T00:00:00.500Z');
    const cutoff = idempotencyExpiry(now);
    expect(cutoff).toBe('2026-02-28T00:00:00.500Z');
    expect('2026-02-28T00:00:00.499Z' < cutoff).toBe(true);
    expect('2026-02-28T00:00:00.501Z' > cutoff).toBe(true);
  });
});

describe('claimBinding', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  const claim = idempotencyClaim('key-1', { to: '+14155550100' }, now);

  test('a claim carries the fingerprint of its request and expires what is older than the window', () => {
    expect(claim).toEqual({ key: 'key-1', fingerprint: requestFingerprint({ to: '+14155550100' }), now: now.toISOString(), expiredBefore: '2026-11-23T12:00:00.000Z' });
  });

  test('no stored claim, or one older than the window, binds nothing', () => {
    expect(claimBinding(undefined, claim)).toBeUndefined();
    expect(claimBinding(null, claim)).toBeUndefined();
    expect(claimBinding({ fingerprint: claim.fingerprint, createdAt: '2026-11-23T11:59:59.999Z' }, claim)).toBeUndefined();
  });

  test('within the window the same body replays and another is the key reused', () => {
    expect(claimBinding({ fingerprint: claim.fingerprint, createdAt: '2026-11-23T12:00:00.000Z' }, claim)).toBe('replay');
    expect(claimBinding({ fingerprint: requestFingerprint({ to: '+14155550101' }), createdAt: now.toISOString() }, claim)).toBe('key_reused');
  });
});
