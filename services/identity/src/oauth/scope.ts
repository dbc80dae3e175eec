// OAuth scope strings (RFC 6749 3.3): space-separated, checked against the canonical registry.
import { nonCanonical } from '@voice/runtime';

/** The distinct scopes of a scope string in their order, and those that are not canonical. */
export function parseScope(text: string): { scopes: string[]; unknown: string[] } {
  const scopes = [...new Set(text.split(' ').filter((scope) => scope.length > 0))];
  return { scopes, unknown: nonCanonical(scopes) };
}

export const isSubset = (scopes: readonly string[], of: readonly string[]): boolean => scopes.every((scope) => of.includes(scope));

export const formatScope = (scopes: readonly string[]): string => scopes.join(' ');
