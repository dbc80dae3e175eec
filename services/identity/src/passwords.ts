// Password hashes: scrypt at the cost the OWASP Password Storage Cheat Sheet recommends (N=2^17,
// r=8, p=1: 128 MiB; 16-byte salt, 32-byte key), kept as the self-describing string
// scrypt$N$r$p$<salt>$<hash>, so a hash made at an older cost still verifies and is replaced on
// the user's next successful sign-in (needsRehash).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const cost = { N: 1 << 17, r: 8, p: 1 };
const saltBytes = 16;
const keyBytes = 32;

/**
 * Each derivation holds 128 * N * r bytes (128 MiB today) while it runs: at most this many run at
 * once in a process, so concurrent sign-ins queue instead of exceeding identity's memory limit.
 */
export const maxConcurrentDerivations = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  if (running >= maxConcurrentDerivations) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    // 128 * N * r bytes are needed; the default ceiling (32 MiB) is too tight for larger N.
    const maxmem = 256 * (options.N ?? cost.N) * (options.r ?? cost.r);
    return await new Promise((resolve, reject) => {
      scrypt(password, salt, keyLength, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
    });
  } finally {
    // The slot passes straight to the next waiter, so `running` never drops below what runs.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
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

/** True for a hash made with other parameters than today's: it verifies, but should be made again. */
export function needsRehash(encoded: string): boolean {
  const parsed = decode(encoded);
  return !parsed || parsed.N !== cost.N || parsed.r !== cost.r || parsed.p !== cost.p || parsed.hash.length !== keyBytes;
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
