// OAuth scope strings (RFC 6749 3.3): space-separated, checked against the canonical registry.
import { nonCanonical } from '@voice/runtime/access';

/** The distinct scopes of a scope string in their order, and those that are not canonical. */
export function parseScope(text: string): { scopes: string[]; unknown: string[] } {
  const scopes = [...new Set(text.split(' ').filter((scope) => scope.length > 0))];
  return { scopes, unknown: nonCanonical(scopes) };
}

/**
 * Why `requested` may not be granted within `allowed` (canonical scopes only), or undefined when it
 * may; `allowedAre` says where the allowed scopes come from ("registered for the client").
 */
export function scopeIssue(requested: readonly string[], allowed: readonly string[], allowedAre: string): string | undefined {
  const unknown = nonCanonical(requested);
  if (unknown.length > 0) return `scope names scopes this platform does not have: ${unknown.join(', ')}`;
  const beyond = requested.filter((scope) => !allowed.includes(scope));
  return beyond.length > 0 ? `scope asks for ${beyond.join(', ')}, beyond the scopes ${allowedAre} (${allowed.join(' ')})` : undefined;
}

