// Password hashes: scrypt at the cost the OWASP Password Storage Cheat Sheet recommends (N=2^17,
// r=8, p=1: 128 MiB; 16-byte salt, 32-byte key), kept as the self-describing string
// scrypt$N$r$p$<salt>$<hash>, so a hash made at another cost still verifies, and one below
// today's is replaced on the user's next successful sign-in (needsRehash).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** VOICE_PASSWORD_HASH_COST: scrypt's N as a power of two. */
export const passwordHashCost = { default: 17, min: 14, max: 20 } as const;

interface Cost {
  N: number;
  r: number;
  p: number;
}

const costOf = (log2N: number): Cost => ({ N: 2 ** log2N, r: 8, p: 1 });
const saltBytes = 16;
const keyBytes = 32;

/**
 * Each derivation holds 128 * N * r bytes (128 MiB at the default cost) while it runs: at most this
 * many run at once in a process, so concurrent sign-ins queue instead of exceeding identity's
 * memory limit.
 */
export const maxConcurrentDerivations = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** Waits for a slot; a caller that gives up meanwhile (its call was cancelled) leaves the queue. */
function slot(signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (running < maxConcurrentDerivations) {
    running += 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const take = () => {
      signal?.removeEventListener('abort', leave);
      resolve();
    };
    const leave = () => {
      waiting.splice(waiting.indexOf(take), 1);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', leave, { once: true });
    waiting.push(take);
  });
}

async function derive(password: string, salt: Buffer, keyLength: number, options: Cost, signal?: AbortSignal): Promise<Buffer> {
  await slot(signal);
  try {
    // 128 * N * r bytes are needed; the default ceiling (32 MiB) is too tight for larger N.
    const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
    return await new Promise((resolve, reject) => {
      scrypt(password, salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
    });
  } finally {
    // The slot passes straight to the next waiter, so `running` never drops below what runs.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

const encode = (cost: Cost, salt: Buffer, hash: Buffer): string =>
  ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$');

interface Encoded extends Cost {
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

/**
 * Hashes and verifies passwords at one cost. `signal` is the call a hash is for: once it is
 * cancelled, a hash still waiting for its turn is not made.
 */
export class PasswordHasher {
  private readonly cost: Cost;
  /** A hash no password matches, at this cost, so an unknown e-mail costs what a wrong password does. */
  private readonly decoy: string;

  constructor(log2N: number = passwordHashCost.default) {
    this.cost = costOf(log2N);
    this.decoy = encode(this.cost, randomBytes(saltBytes), randomBytes(keyBytes));
  }

  async hash(password: string, signal?: AbortSignal): Promise<string> {
    const salt = randomBytes(saltBytes);
    return encode(this.cost, salt, await derive(password, salt, keyBytes, this.cost, signal));
  }

  async verify(password: string, encoded: string, signal?: AbortSignal): Promise<boolean> {
    const parsed = decode(encoded);
    if (!parsed) return false;
    const candidate = await derive(password, parsed.salt, parsed.hash.length, parsed, signal);
    return timingSafeEqual(candidate, parsed.hash);
  }

  /** Spends the time of one verification. */
  async verifyNothing(password: string, signal?: AbortSignal): Promise<void> {
    await this.verify(password, this.decoy, signal);
  }

  /** True for a hash weaker than this cost (or not ours): it verifies, but should be made again. A stronger one stays. */
  needsRehash(encoded: string): boolean {
    const parsed = decode(encoded);
    return !parsed || parsed.N < this.cost.N || parsed.r !== this.cost.r || parsed.p !== this.cost.p || parsed.hash.length !== keyBytes;
  }
}
