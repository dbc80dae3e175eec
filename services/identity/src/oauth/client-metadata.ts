// RFC 7591 client metadata, validated one way for dynamic registrations and metadata documents.
import { canonicalScopes } from '@voice/runtime/access';
import type { OAuthClientRecord } from '../store/store.js';
import { maxClientNameLength, maxClientUriLength, maxRedirectUris } from '@voice/runtime/oauth';
import { canonicalRedirectUri, redirectUriIssue } from '../domain/redirect-uris.js';
import { parseScope } from '../domain/oauth-scope.js';

export type AuthMethod = OAuthClientRecord['tokenEndpointAuthMethod'];

export const grantTypes = ['authorization_code', 'refresh_token'] as const;
export const authMethods: readonly AuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];

/** The metadata as received; an empty string or list means "not sent". */
export interface ClientMetadataInput {
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: string;
  scope: string;
  clientUri: string;
}

export type ClientMetadata = Pick<OAuthClientRecord, 'name' | 'redirectUris' | 'scopes' | 'grantTypes' | 'tokenEndpointAuthMethod' | 'clientUri'>;

export type MetadataProblem = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; field: string; issue: string };

export function validateClientMetadata(
  input: ClientMetadataInput,
  rules: { defaultAuthMethod: AuthMethod; allowedAuthMethods: readonly AuthMethod[] },
): { ok: true; metadata: ClientMetadata } | { ok: false; problem: MetadataProblem } {
  const fail = (error: MetadataProblem['error'], field: string, issue: string) => ({ ok: false as const, problem: { error, field, issue } });

  const sent = [...new Set(input.redirectUris)];
  if (sent.length === 0 || sent.length > maxRedirectUris) {
    return fail('invalid_redirect_uri', 'redirect_uris', `must list 1 to ${maxRedirectUris} redirect URIs`);
  }
  for (const uri of sent) {
    const issue = redirectUriIssue(uri);
    if (issue) return fail('invalid_redirect_uri', 'redirect_uris', `${JSON.stringify(uri)} ${issue}`);
  }
  const redirectUris = [...new Set(sent.map(canonicalRedirectUri))];

  const grants = input.grantTypes.length > 0 ? [...new Set(input.grantTypes)] : [...grantTypes];
  const unknownGrant = grants.find((grant) => !(grantTypes as readonly string[]).includes(grant));
  if (unknownGrant !== undefined) return fail('invalid_client_metadata', 'grant_types', `must be authorization_code or refresh_token, not ${JSON.stringify(unknownGrant)}`);
  // Without authorization_code a client could never obtain a first token.
  if (!grants.includes('authorization_code')) return fail('invalid_client_metadata', 'grant_types', 'must include authorization_code');

  const otherResponse = input.responseTypes.find((type) => type !== 'code');
  if (otherResponse !== undefined) return fail('invalid_client_metadata', 'response_types', `must be code, not ${JSON.stringify(otherResponse)}`);

  const method = input.tokenEndpointAuthMethod || rules.defaultAuthMethod;
  if (!(rules.allowedAuthMethods as readonly string[]).includes(method)) {
    const allowed = rules.allowedAuthMethods.length === 1 ? rules.allowedAuthMethods[0] : `one of ${rules.allowedAuthMethods.join(', ')}`;
    return fail('invalid_client_metadata', 'token_endpoint_auth_method', `must be ${allowed}, not ${JSON.stringify(method)}`);
  }

  const { scopes, unknown } = parseScope(input.scope);
  if (unknown.length > 0) return fail('invalid_client_metadata', 'scope', `names scopes this platform does not have: ${unknown.join(', ')}`);

  const name = input.clientName.trim();
  if (name.length > maxClientNameLength) return fail('invalid_client_metadata', 'client_name', `must be at most ${maxClientNameLength} characters`);

  if (input.clientUri && !isHttpsUrl(input.clientUri)) return fail('invalid_client_metadata', 'client_uri', 'must be an https URL');

  return {
    ok: true,
    metadata: {
      name,
      redirectUris,
      scopes: scopes.length > 0 ? scopes : [...canonicalScopes],
      grantTypes: grants,
      tokenEndpointAuthMethod: method as AuthMethod,
      clientUri: input.clientUri || null,
    },
  };
}

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && !url.username && !url.password && text.length <= maxClientUriLength;
  } catch {
    return false;
  }
}
