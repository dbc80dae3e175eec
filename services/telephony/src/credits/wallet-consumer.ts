// Keeps telephony's view of every wallet current from billing's WalletChanged events, and
// closes the reservation of each usage event billing reports as applied. Applying the same
// event twice changes nothing, so redelivery needs no processed-events table (and a copy counts as
// applied again in the metrics: nothing tells it apart).
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import {
  durableNames,
  eventConsumerMetrics,
  walletChangedSubject,
  walletStream,
  type Consumption,
  type EventConsumerMetrics,
  type EventStream,
  type Logger,
} from '@voice/runtime';
import { WalletChangedSchema } from '@voice/proto/voice/billing/v1/events';
import type { TelephonyStore } from '../store/store.js';
import { walletViewOf } from './wallet-view.js';

export async function consumeWalletChanges(
  events: EventStream,
  store: TelephonyStore,
  logger: Logger,
  metrics: EventConsumerMetrics = eventConsumerMetrics({ consumer: durableNames.telephonyWallets, stream: walletStream.name }),
): Promise<Consumption> {
  await events.ensureStream(walletStream.name, walletStream.subjects);
  return events.consume({
    stream: walletStream.name,
    durable: durableNames.telephonyWallets,
    subjects: [walletChangedSubject],
    handler: async (event) => {
      let change;
      try {
        change = fromBinary(WalletChangedSchema, event.payload);
      } catch (error) {
        logger.error('undecodable wallet event dropped', { error, event_id: event.id });
        metrics.failed();
        return;
      }
      const wallet = change.wallet;
      if (!wallet?.workspaceId) {
        logger.error('wallet event without a wallet dropped', { event_id: event.id });
        metrics.failed();
        return;
      }
      try {
        await store.applyWalletView(walletViewOf(wallet), change.appliedUsageEventId || undefined);
      } catch (error) {
        metrics.failed();
        throw error;
      }
      metrics.applied(change.occurredAt ? timestampDate(change.occurredAt) : event.storedAt);
    },
  });
}
