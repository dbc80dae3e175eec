// A registered OAuth client's stored form (but for the id) and its mapping to and from the record;
// only the secret's hash is ever stored.
import type { StoredValues } from '@voice/runtime/store';
import type { OAuthClientRecord } from '../store.js';

export interface StoredOAuthClient<List> {
  name: string;
  redirect_uris: List;
  scopes: List;
  grant_types: List;
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  client_uri: string | null;
  /** Missing on MongoDB clients registered before realms. */
  realm_id?: string | null;
  created_at: string;
}

export const storedOAuthClient = <List>(c: OAuthClientRecord, values: StoredValues<unknown, List>): StoredOAuthClient<List> => ({
  name: c.name,
  redirect_uris: values.list(c.redirectUris),
  scopes: values.list(c.scopes),
  grant_types: values.list(c.grantTypes),
  token_endpoint_auth_method: c.tokenEndpointAuthMethod,
  secret_hash: c.secretHash,
  client_uri: c.clientUri,
  realm_id: c.realmId,
  created_at: c.createdAt,
});

export const oauthClientFromStored = <List>(id: string, s: StoredOAuthClient<List>, values: StoredValues<unknown, List>): OAuthClientRecord => ({
  id,
  name: s.name,
  redirectUris: values.items(s.redirect_uris),
  scopes: values.items(s.scopes),
  grantTypes: values.items(s.grant_types),
  tokenEndpointAuthMethod: s.token_endpoint_auth_method as OAuthClientRecord['tokenEndpointAuthMethod'],
  secretHash: s.secret_hash,
  clientUri: s.client_uri,
  realmId: s.realm_id ?? null,
  createdAt: s.created_at,
});
