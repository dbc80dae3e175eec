// Fetches a Client ID Metadata Document with the egress guard: GET, JSON, 5 s, 64 KiB, and no
// redirects followed (the document must live at its own client_id).
import { EgressRefused, guardedRequest, RequestFailed, type EgressPolicy } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';

/** Answers the document's parsed JSON, or rejects with MetadataUnavailable saying why. */
export type ClientMetadataFetcher = (url: string) => Promise<unknown>;

export class MetadataUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetadataUnavailable';
  }
}

export const metadataFetchTimeoutMs = 5000;
export const maxMetadataBytes = 64 * 1024;

export function guardedMetadataFetcher(policy: EgressPolicy, options: { timeoutMs?: number; logger?: Logger } = {}): ClientMetadataFetcher {
  const { timeoutMs = metadataFetchTimeoutMs, logger } = options;
  return async (url) => {
    let response;
    try {
      response = await guardedRequest({
        method: 'GET',
        url,
        headers: { accept: 'application/json' },
        timeoutMs,
        policy,
        redirect: 'manual',
        maxBodyBytes: maxMetadataBytes,
        logger,
      });
    } catch (error) {
      if (error instanceof EgressRefused) throw new MetadataUnavailable('its address is not allowed');
      // RequestFailed says only its reason (unreachable, timeout, tls_error, dns_error, bad_response); its detail is logged.
      if (error instanceof RequestFailed) throw new MetadataUnavailable(`${error.code}: ${error.message}`);
      logger?.warn('client metadata fetch failed', { error });
      throw new MetadataUnavailable('it could not be fetched');
    }
    if (response.status !== 200) throw new MetadataUnavailable(`it answered HTTP ${response.status}, not 200`);
    if (response.truncated) throw new MetadataUnavailable(`it is larger than ${maxMetadataBytes / 1024} KiB`);
    try {
      return JSON.parse(response.body) as unknown;
    } catch {
      throw new MetadataUnavailable('it is not JSON');
    }
  };
}
