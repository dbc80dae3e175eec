// Secrets at rest (SecretBox, loadKey) and the comparison and random helpers.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../src/config/env.js';
import { constantTimeEqual, deriveKey, loadKey, randomBase62, SecretBox, sha256Hex } from '../src/crypto.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  test('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32-byte key');
    expect(() => new SecretBox(randomBytes(33))).toThrow('32-byte key');
  });

  test.each(['', 'sk_live_123', 'ünïcødé ✓ 🔑', 'x'.repeat(100_000)])('seal then open returns the plaintext (%#)', (plaintext) => {
    const sealed = box.seal(plaintext);
    expect(sealed.startsWith('enc:v1:')).toBe(true);
    expect(sealed).not.toContain(plaintext || 'never-empty');
    expect(box.open(sealed)).toBe(plaintext);
  });

  test('the same plaintext seals differently each time', () => {
    const first = box.seal('same secret');
    const second = box.seal('same secret');
    expect(first).not.toBe(second);
    expect(box.open(first)).toBe(box.open(second));
  });

  test('any change to the sealed value fails to open', () => {
    const sealed = box.seal('do not touch');
    const raw = Buffer.from(sealed.slice('enc:v1:'.length), 'base64url');
    // Flip one bit in the iv, the tag and the ciphertext in turn.
    for (const index of [0, 12, 28, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] = tampered[index]! ^ 0x01;
      expect(() => box.open('enc:v1:' + tampered.toString('base64url'))).toThrow();
    }
    expect(() => box.open('enc:v1:' + raw.subarray(0, raw.length - 1).toString('base64url'))).toThrow();
  });

  test('another key fails to open', () => {
    const sealed = box.seal('for one key only');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  test('an unsealed value is refused', () => {
    expect(() => box.open('plain text')).toThrow('value is not sealed');
  });

  test('isSealed recognises only sealed strings', () => {
    expect(SecretBox.isSealed(box.seal('x'))).toBe(true);
    expect(SecretBox.isSealed('enc:v1:anything')).toBe(true);
    expect(SecretBox.isSealed('enc:v2:anything')).toBe(false);
    expect(SecretBox.isSealed('plain')).toBe(false);
    expect(SecretBox.isSealed(undefined)).toBe(false);
    expect(SecretBox.isSealed(42)).toBe(false);
    expect(SecretBox.isSealed({ value: 'enc:v1:x' })).toBe(false);
  });
});

describe('loadKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runtime-crypto-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const configErrorOf = (load: () => unknown): ConfigError => {
    try {
      load();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('expected a ConfigError, but nothing was thrown');
  };

  test('a 64-character hex value is the key, in either case', () => {
    const key = randomBytes(32);
    const file = join(dir, 'unused.key');
    expect(loadKey({ variable: 'VOICE_KEY', value: key.toString('hex'), file, required: true }).equals(key)).toBe(true);
    expect(loadKey({ variable: 'VOICE_KEY', value: key.toString('hex').toUpperCase(), file, required: false }).equals(key)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  test('a base64 value is the key', () => {
    const key = randomBytes(32);
    const file = join(dir, 'unused.key');
    expect(loadKey({ variable: 'VOICE_KEY', value: key.toString('base64'), file, required: true }).equals(key)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  test.each([
    ['16 bytes of hex', randomBytes(16).toString('hex')],
    ['33 bytes of base64', randomBytes(33).toString('base64')],
    ['31 bytes of base64', randomBytes(31).toString('base64')],
    ['63 hex characters', 'a'.repeat(63)],
    ['a word', 'secret'],
  ])('%s is refused, naming the variable', (_label, value) => {
    const error = configErrorOf(() => loadKey({ variable: 'VOICE_SECRET_KEY', value, file: join(dir, 'k'), required: false }));
    expect(error.message).toContain('VOICE_SECRET_KEY');
    expect(error.message).toContain('32 bytes');
    expect(existsSync(join(dir, 'k'))).toBe(false);
  });

  test('without a value, a key file is created with mode 0600 and reused', () => {
    const file = join(dir, 'nested', 'data', 'secret.key');
    const first = loadKey({ variable: 'VOICE_KEY', value: undefined, file, required: false });
    expect(first).toHaveLength(32);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    const second = loadKey({ variable: 'VOICE_KEY', value: undefined, file, required: false });
    expect(second.equals(first)).toBe(true);
  });

  test('the key file is used as it is, and a corrupt one names the file', () => {
    const file = join(dir, 'given.key');
    const key = randomBytes(32);
    writeFileSync(file, key.toString('base64') + '\n');
    expect(loadKey({ variable: 'VOICE_KEY', value: undefined, file, required: false }).equals(key)).toBe(true);
    writeFileSync(file, 'too short\n');
    expect(configErrorOf(() => loadKey({ variable: 'VOICE_KEY', value: undefined, file, required: false })).message).toContain(file);
  });

  test('required without a value is a ConfigError naming the variable, and writes no file', () => {
    const file = join(dir, 'never.key');
    const error = configErrorOf(() => loadKey({ variable: 'VOICE_SECRET_KEY', value: undefined, file, required: true }));
    expect(error.message).toContain('VOICE_SECRET_KEY');
    expect(existsSync(file)).toBe(false);
  });
});

describe('deriveKey', () => {
  const secret = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');

  test('is the HMAC-SHA256 of the label: the keys already in use (OAuth, recordings, sessions) stay what they were', () => {
    expect(deriveKey(secret, 'voice-oauth:csrf')).toEqual(createHmac('sha256', secret).update('voice-oauth:csrf').digest());
    expect(deriveKey(secret, 'voice-oauth:csrf')).toHaveLength(32);
  });

  test('another label or another secret gives another key', () => {
    expect(deriveKey(secret, 'voice-oauth:csrf').equals(deriveKey(secret, 'voice-oauth:login-ticket'))).toBe(false);
    expect(deriveKey(secret, 'voice-oauth:csrf').equals(deriveKey(randomBytes(32), 'voice-oauth:csrf'))).toBe(false);
  });
});

describe('sha256Hex', () => {
  test('is the hex SHA-256 digest', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('constantTimeEqual', () => {
  test('equal strings are equal', () => {
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('same-token', 'same-token')).toBe(true);
    expect(constantTimeEqual('ünï', 'ünï')).toBe(true);
  });

  test('different strings of the same or another length are not', () => {
    expect(constantTimeEqual('token-a', 'token-b')).toBe(false);
    expect(constantTimeEqual('short', 'longer-value')).toBe(false);
    expect(constantTimeEqual('abc', '')).toBe(false);
    expect(constantTimeEqual('', 'abc')).toBe(false);
  });
});

describe('randomBase62', () => {
  test.each([0, 1, 43, 500])('gives exactly %i base62 characters', (length) => {
    const value = randomBase62(length);
    expect(value).toHaveLength(length);
    expect(value).toMatch(/^[0-9A-Za-z]*$/);
  });

  test('draws from the whole alphabet and does not repeat', () => {
    const sample = randomBase62(20_000);
    expect(new Set(sample).size).toBe(62);
    expect(randomBase62(43)).not.toBe(randomBase62(43));
  });
});
