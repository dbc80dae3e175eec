// Client ID Metadata Documents: a client_id that is an HTTPS URL names a JSON document that
// describes the client. Documents are fetched on first use and kept for five minutes.
import { maxClientUriLength } from '@voice/runtime/oauth';
import { validateClientMetadata, type ClientMetadataInput } from './client-metadata.js';
import type { ResolvedClient } from './clients.js';
import { oauthError } from './errors.js';
import { MetadataUnavailable, type ClientMetadataFetcher } from './metadata-fetch.js';

export const metadataCacheMs = 5 * 60_000;
const maxCachedDocuments = 1000;

export const isMetadataDocumentUrl = (clientId: string): boolean => clientId.startsWith('https://');

const unusable = (url: string, why: string) => oauthError('invalid_client', `the client metadata document ${url} is unusable: ${why}`);

/** What draft-ietf-oauth-client-id-metadata-document asks of the URL itself. */
function urlIssue(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'client_id is not a valid URL';
  }
  if (text.length > maxClientUriLength) return `client_id is longer than ${maxClientUriLength} characters`;
  if (url.protocol !== 'https:' || url.username || url.password || text.includes('#')) return 'client_id must be an https URL without credentials or fragment';
  // Comparing with the parsed form catches dot segments (also percent-encoded), case and
  // default ports at once: the URL fetched is exactly the client_id.
  if (url.pathname === '/') return 'client_id must have a path: the address of the metadata document, not the bare origin';
  if (url.href !== text) return `client_id must be in canonical form (lower-case host, no default port, no dot segments): ${url.href}`;
  return undefined;
}

const strings = (value: unknown, field: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new MetadataUnavailable(`${field} must be an array of strings`);
  return value as string[];
};

const text = (value: unknown, field: string): string => {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new MetadataUnavailable(`${field} must be a string`);
  return value;
};

/** The document as registration metadata; public clients only, so no secrets of any kind. */
function inputOf(url: string, document: unknown): ClientMetadataInput {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new MetadataUnavailable('it is not a JSON object');
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) throw new MetadataUnavailable('its client_id is not exactly the URL it was fetched from');
  if (fields.client_secret !== undefined || fields.client_secret_expires_at !== undefined) throw new MetadataUnavailable('it must not contain a client secret');
  if (fields.redirect_uris === undefined) throw new MetadataUnavailable('redirect_uris is required');
  return {
    clientName: text(fields.client_name, 'client_name'),
    redirectUris: strings(fields.redirect_uris, 'redirect_uris'),
    grantTypes: strings(fields.grant_types, 'grant_types'),
    responseTypes: strings(fields.response_types, 'response_types'),
    tokenEndpointAuthMethod: text(fields.token_endpoint_auth_method, 'token_endpoint_auth_method'),
    scope: text(fields.scope, 'scope'),
    clientUri: text(fields.client_uri, 'client_uri'),
  };
}

export class MetadataDocuments {
  private readonly cache = new Map<string, { client: ResolvedClient; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<ResolvedClient>>();

  constructor(private readonly fetchDocument: ClientMetadataFetcher, private readonly now: () => Date) {}

  /** The client the document at `url` describes; an unusable document is invalid_client. */
  async resolve(url: string): Promise<ResolvedClient> {
    const issue = urlIssue(url);
    if (issue) throw unusable(url, issue);
    const hit = this.cache.get(url);
    if (hit && hit.expiresAt > this.now().getTime()) return hit.client;
    this.cache.delete(url);
    const pending = this.inFlight.get(url);
    if (pending) return pending;
    const load = this.load(url).finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, load);
    return load;
  }

  private async load(url: string): Promise<ResolvedClient> {
    let input: ClientMetadataInput;
    try {
      input = inputOf(url, await this.fetchDocument(url));
    } catch (error) {
      if (error instanceof MetadataUnavailable) throw unusable(url, error.message);
      throw error;
    }
    const result = validateClientMetadata(input, { defaultAuthMethod: 'none', allowedAuthMethods: ['none'] });
    if (!result.ok) throw unusable(url, `${result.problem.field}: ${result.problem.issue}`);
    const now = this.now();
    const client: ResolvedClient = { id: url, ...result.metadata, secretHash: null, realmId: null, createdAt: now.toISOString(), metadataDocument: true };
    if (this.cache.size >= maxCachedDocuments) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(url, { client, expiresAt: now.getTime() + metadataCacheMs });
    return client;
  }
}
