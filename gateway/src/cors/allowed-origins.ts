// VOICE_CORS_ORIGINS: the browser origins that may call the API and the OAuth endpoints a single-page
// app needs (token, registration, revocation). Read once at start; a malformed entry names the variable.
import { ConfigError, readOptionalString, type Env } from '@voice/runtime/config';

/** `any`: every origin (answers carry `*`); otherwise the exact origins listed. */
export type AllowedOrigins = 'any' | ReadonlySet<string>;

export function readAllowedOrigins(env: Env): AllowedOrigins {
  const raw = readOptionalString(env, 'VOICE_CORS_ORIGINS')?.trim();
  if (!raw) return new Set();
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.includes('*')) {
    if (entries.length > 1) throw new ConfigError('VOICE_CORS_ORIGINS', 'is either * or a list of origins, not both');
    return 'any';
  }
  return new Set(entries.map(originOf));
}

/** An entry as browsers send it in `Origin`: scheme, host and a port other than the scheme's default. */
function originOf(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new ConfigError('VOICE_CORS_ORIGINS', `${JSON.stringify(entry)} is not an origin such as https://app.example.com`);
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !entry.trim().endsWith('/');
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !bare) {
    throw new ConfigError('VOICE_CORS_ORIGINS', `${JSON.stringify(entry)} is not an origin (http or https, a host and an optional port, no path)`);
  }
  return url.origin;
}

export const isAllowedOrigin = (allowed: AllowedOrigins, origin: string): boolean => allowed === 'any' || allowed.has(origin);
