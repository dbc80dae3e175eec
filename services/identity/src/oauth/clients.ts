// OAuth clients: dynamic registration (RFC 7591), resolving a client_id (a registered client's
// UUID or a metadata document's URL), and client authentication at the token endpoint.
import { ConnectError } from '@connectrpc/connect';
import { constantTimeEqual } from '@voice/runtime/crypto';
import { isUuid, newId } from '@voice/runtime/ids';
import type { RegisterClientRequest } from '@voice/proto/voice/identity/v1/identity';
import { clientSecretPrefix, hashCredential, newCredential } from '../domain/credentials.js';
import type { OAuthClientRecord, OAuthStore, WorkspaceKeyStore } from '../store/store.js';
import { clientServesRealm, realmNamed } from '../workspaces/realms.js';
import { authMethods, validateClientMetadata } from './client-metadata.js';
import { clientAuthenticationFailed, oauthError } from './errors.js';
import { isMetadataDocumentUrl, type MetadataDocuments } from './metadata-documents.js';

export interface ResolvedClient extends OAuthClientRecord {
  /** True when the client is described by the metadata document at its client_id. */
  metadataDocument: boolean;
}

const unknownClient = () => oauthError('invalid_client', 'the client_id names no registered client');
const malformedClientId = () =>
  oauthError('invalid_client', 'client_id must be a registered client’s id (a UUID) or the https URL of a client metadata document');

export class Clients {
  constructor(private readonly deps: { store: OAuthStore & WorkspaceKeyStore; documents: MetadataDocuments; now: () => Date }) {}

  async register(request: RegisterClientRequest): Promise<{ client: ResolvedClient; secret: string }> {
    const result = validateClientMetadata(
      {
        clientName: request.clientName,
        redirectUris: request.redirectUris,
        grantTypes: request.grantTypes,
        responseTypes: request.responseTypes,
        tokenEndpointAuthMethod: request.tokenEndpointAuthMethod,
        scope: request.scope,
        clientUri: request.clientUri,
      },
      // RFC 7591 2: client_secret_basic when the client does not say.
      { defaultAuthMethod: 'client_secret_basic', allowedAuthMethods: authMethods },
    );
    if (!result.ok) {
      const { error, field, issue } = result.problem;
      throw oauthError(error, `${field}: ${issue}`, [{ field, issue }]);
    }
    const realmId = await realmNamed(this.deps.store, request.realmWorkspaceId);
    if (realmId === undefined) throw oauthError('invalid_request', 'the realm is unknown');
    const secret = result.metadata.tokenEndpointAuthMethod === 'none' ? '' : newCredential(clientSecretPrefix);
    const record: OAuthClientRecord = {
      id: newId(),
      ...result.metadata,
      secretHash: secret ? hashCredential(secret) : null,
      realmId,
      createdAt: this.deps.now().toISOString(),
    };
    await this.deps.store.createClient(record);
    return { client: { ...record, metadataDocument: false }, secret };
  }

  /**
   * The client a client_id names for a page of the realm `realmWorkspaceId` (empty: the root's);
   * a client registered in another realm is as unknown as one never registered.
   */
  async resolveIn(clientId: string, realmWorkspaceId: string): Promise<ResolvedClient> {
    const client = await this.resolve(clientId);
    if (!(await clientServesRealm(this.deps.store, client, await realmNamed(this.deps.store, realmWorkspaceId)))) throw unknownClient();
    return client;
  }

  /** The client a client_id names; an unknown or unusable one is invalid_client. */
  async resolve(clientId: string): Promise<ResolvedClient> {
    if (isMetadataDocumentUrl(clientId)) return this.deps.documents.resolve(clientId);
    if (!isUuid(clientId)) throw malformedClientId();
    const record = await this.deps.store.getClient(clientId);
    if (!record) throw unknownClient();
    return { ...record, metadataDocument: false };
  }

  /**
   * Client authentication at the token and revocation endpoints: a confidential client must
   * present its secret with the method it registered (RFC 7591 token_endpoint_auth_method), a
   * public client none. `method` is how the secret came (empty: not reported). Every failure is
   * invalid_client (401).
   */
  async authenticate(clientId: string, secret: string, method: string): Promise<ResolvedClient> {
    if (!clientId) throw clientAuthenticationFailed('client authentication failed: no client_id');
    let client: ResolvedClient;
    try {
      client = await this.resolve(clientId);
    } catch (error) {
      if (!(error instanceof ConnectError)) throw error;
      throw clientAuthenticationFailed(`client authentication failed: ${error.rawMessage}`);
    }
    if (client.secretHash === null) {
      if (secret) throw clientAuthenticationFailed('client authentication failed: a public client has no secret');
      return client;
    }
    if (!secret) throw clientAuthenticationFailed('client authentication failed: the client is confidential and sent no client secret');
    if (!constantTimeEqual(hashCredential(secret), client.secretHash)) throw clientAuthenticationFailed('client authentication failed: the client secret is wrong');
    // Checked after the secret, so the answer never tells a method's rule to whoever lacks the secret.
    if (method && method !== client.tokenEndpointAuthMethod) {
      throw clientAuthenticationFailed(`client authentication failed: the client is registered for ${client.tokenEndpointAuthMethod}, not ${method}`);
    }
    return client;
  }
}
