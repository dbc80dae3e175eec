// The canonical scope registry and the one place that decides whether scopes cover a need.

const resourceAreas = [
  'assistants',
  'calls',
  'campaigns',
  'automations',
  'dashboards',
  'leads',
  'segments',
  'loop',
  'phone_numbers',
  'sip_trunks',
  'knowledge',
  'billing',
  'settings',
  'platform',
] as const;

export const canonicalScopes: readonly string[] = Object.freeze([
  ...resourceAreas.flatMap((area) => [`${area}:read`, `${area}:write`]),
  'voices:read',
]);

const canonical = new Set(canonicalScopes);

export const isCanonicalScope = (scope: string): boolean => canonical.has(scope);

/** Granted scopes of a credential; null means the credential has no scope restrictions. */
export type GrantedScopes = readonly string[] | null;

/** The *:read scope a *:write scope implies, if it is one. */
export const impliedRead = (scope: string): string | undefined => (scope.endsWith(':write') ? `${scope.slice(0, -':write'.length)}:read` : undefined);

/** A *:write scope implies the matching *:read scope. */
export function hasScope(granted: GrantedScopes, needed: string): boolean {
  if (granted === null) return true;
  return granted.includes(needed) || granted.some((scope) => impliedRead(scope) === needed);
}

/** True when every needed scope is covered; used for route checks (any of several legacy scopes is a separate call). */
export function coversAll(granted: GrantedScopes, needed: readonly string[]): boolean {
  return needed.every((scope) => hasScope(granted, scope));
}

export function nonCanonical(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !canonical.has(scope));
}
