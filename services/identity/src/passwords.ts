// Password hashes: scrypt (N=16384, r=8, p=1, 16-byte salt, 32-byte key) kept as the
// self-describing string scrypt$N$r$p$<salt>$<hash>, so parameters can change without a migration.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const cost = { N: 16384, r: 8, p: 1 };
const saltBytes = 16;
const keyBytes = 32;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  // 128 * N * r bytes are needed; the default ceiling (32 MiB) is too tight for larger N.
  const maxmem = 256 * (options.N ?? cost.N) * (options.r ?? cost.r);
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltBytes);
  const hash = await derive(password, salt, keyBytes, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface Encoded {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function decode(encoded: string): Encoded | undefined {
  const [scheme, n, r, p, salt, hash, ...rest] = encoded.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || hash === undefined) return undefined;
  const [N, R, P] = [n, r, p].map(Number) as [number, number, number];
  // Bounds keep a damaged row from asking for gigabytes of memory.
  const sane = Number.isInteger(Math.log2(N)) && N >= 1024 && N <= 1 << 20 && Number.isInteger(R) && R >= 1 && R <= 32 && Number.isInteger(P) && P >= 1 && P <= 16;
  const decoded = { N, r: R, p: P, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
  return sane && decoded.salt.length >= 8 && decoded.hash.length >= 16 && decoded.hash.length <= 64 ? decoded : undefined;
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = decode(encoded);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(candidate, parsed.hash);
}

/** A hash no password matches, with the current parameters. */
const decoy = ['scrypt', cost.N, cost.r, cost.p, randomBytes(saltBytes).toString('base64'), randomBytes(keyBytes).toString('base64')].join('$');

/** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyNothing(password: string): Promise<void> {
  await verifyPassword(password, decoy);
}
