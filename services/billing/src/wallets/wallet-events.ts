// The WalletChanged event a committed wallet change adds to billing's outbox, and the relay
// that publishes the outbox to the wallet stream.
import { create, toBinary } from '@bufbuild/protobuf';
import { WalletChangedSchema } from '@voice/proto/voice/billing/v1/events';
import {
  OutboxRelay,
  walletChangedSubject,
  walletStream,
  type EventStream,
  type NewOutboxEvent,
  type OutboxReader,
} from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { toTimestamp } from '@voice/runtime/time';
import { presentEntry, presentWallet } from '../presenter.js';
import type { LedgerEntry, WalletRecord } from '../store/store.js';

/** `appliedUsageEventId` names the usage event the change applied; empty for other changes. */
export function walletChangedEvent(wallet: WalletRecord, entry: LedgerEntry, occurredAt: string, appliedUsageEventId = ''): NewOutboxEvent {
  const event = create(WalletChangedSchema, {
    eventId: newId(),
    wallet: presentWallet(wallet),
    appliedUsageEventId,
    transaction: presentEntry(entry),
    occurredAt: toTimestamp(occurredAt),
  });
  return { id: event.eventId, subject: walletChangedSubject, payload: toBinary(WalletChangedSchema, event) };
}

/** What a writer tells the relay after committing a change: publish now rather than at the next tick. */
export interface WalletEventsNotice {
  wake(): void;
}

/** Ensures the wallet stream and starts relaying the outbox to it. */
export async function startWalletEventRelay(outbox: OutboxReader, stream: EventStream, logger: Logger): Promise<OutboxRelay> {
  await stream.ensureStream(walletStream.name, walletStream.subjects);
  const relay = new OutboxRelay({ outbox, stream, logger: logger.child({ component: 'wallet-events' }) });
  relay.start();
  return relay;
}
