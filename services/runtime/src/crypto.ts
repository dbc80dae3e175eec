// Secrets at rest: AES-256-GCM with a key from configuration, or generated into the data
// directory in the embedded mode; plus the hashing and comparison helpers every service uses.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hash, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config/env.js';
import { ensurePrivateDirectory, writeNewPrivateFile } from './private-files.js';

const sealedPrefix = 'enc:v1:';

export class SecretBox {
  /** Imported once: a cipher made with a raw Buffer key imports it every time (~4 times the work of sealing a secret). */
  private readonly key: KeyObject;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.key = createSecretKey(key);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return sealedPrefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    if (!SecretBox.isSealed(sealed)) throw new Error('value is not sealed');
    const raw = Buffer.from(sealed.slice(sealedPrefix.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(sealedPrefix);
  }
}

function decodeKey(variable: string, value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError(variable, 'must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/**
 * A 32-byte key from the variable if set; otherwise the file in the data directory, created
 * (mode 0600) on first start. `required` forbids the file fallback (distributed mode, where
 * every replica must share the key).
 */
export function loadKey(options: { variable: string; value: string | undefined; file: string; required: boolean }): Buffer {
  if (options.value !== undefined) return decodeKey(options.variable, options.value);
  if (options.required) throw new ConfigError(options.variable, 'must be set when the platform runs distributed (MONGODB_URI)');
  if (existsSync(options.file)) return decodeKey(options.file, readFileSync(options.file, 'utf8').trim());
  ensurePrivateDirectory(dirname(options.file));
  const key = randomBytes(32);
  writeNewPrivateFile(options.file, key.toString('hex') + '\n');
  return key;
}

/**
 * A key of its own for one purpose, from a shared secret: HMAC-SHA256 of the purpose's label, so a
 * value signed for one purpose never verifies for another. Labels are part of the key: never change one.
 */
export const deriveKey = (secret: Buffer, label: string): Buffer => createHmac('sha256', secret).update(label).digest();

// The one-shot hash: no Hash stream object per call (the gateway hashes every request's credential).
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

/** Constant-time equality of two strings (false, without early exit, when lengths differ). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62 drawn without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += base62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
