// Environment parsing shared by every process: each variable is read once, at start,
// and a bad value stops the start with a message that names the variable.

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readString(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function readOptionalString(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function readInt(env: Env, name: string, fallback: number, bounds: { min: number; max: number }): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `must be an integer, got "${value}"`);
  const parsed = Number(value);
  if (parsed < bounds.min || parsed > bounds.max) {
    throw new ConfigError(name, `must be between ${bounds.min} and ${bounds.max}, got ${parsed}`);
  }
  return parsed;
}

/**
 * A whole number in bounds, or the word `off` (any case). `expected` completes "must be …" in the
 * error, which a value of neither kind gets.
 */
export function readIntOrOff(env: Env, name: string, fallback: number, bounds: { min: number; max: number }, expected: string): number | 'off' {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (value.toLowerCase() === 'off') return 'off';
  const parsed = Number(value);
  if (!/^\d{1,15}$/.test(value) || parsed < bounds.min || parsed > bounds.max) throw new ConfigError(name, `must be ${expected}, got "${value}"`);
  return parsed;
}

export function readPort(env: Env, name: string, fallback: number): number {
  return readInt(env, name, fallback, { min: 0, max: 65535 });
}

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

export function readUrl(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const value = raw(env, name) ?? fallback;
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return value;
}

export function readEnum<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}
