// Which carrier sent a webhook: the connection its URL names (or the platform's own carrier), and
// whether the webhook's signature was made with that carrier's credentials. Nothing a webhook asks
// for happens before this check.
import { notFound, serviceError } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import type { ConnectionStore } from '../store/store.js';
import type { CarrierAdapter, CarrierCallback } from './carrier.js';
import { platformConnectionKey, type CarrierDirectory } from './directory.js';

export interface WebhookCarrier {
  adapter: CarrierAdapter;
  /** null: the platform's carrier. */
  connectionId: string | null;
}

/** The carrier of a verified webhook; an unknown connection is not found, a bad signature forbidden. */
export async function verifiedWebhookCarrier(
  deps: { store: ConnectionStore; carriers: CarrierDirectory },
  connection: string,
  callback: CarrierCallback,
): Promise<WebhookCarrier> {
  let carrier: WebhookCarrier;
  if (connection === platformConnectionKey) carrier = { adapter: deps.carriers.platform(), connectionId: null };
  else {
    const record = isUuid(connection) ? await deps.store.getConnectionById(connection) : undefined;
    if (!record) throw notFound('carrier connection');
    carrier = { adapter: deps.carriers.forConnection(record), connectionId: record.id };
  }
  if (!carrier.adapter.verifyCallback(callback)) throw serviceError('forbidden', 'the callback signature is not valid for this connection');
  return carrier;
}
