// Applies the usage stream to the ledger: each usage event once, in one transaction with its
// processed-event record and its WalletChanged event. Resolving the handler acknowledges. Each
// delivery's outcome and each applied event's lag are recorded as metrics.
import { Code, ConnectError } from '@connectrpc/connect';
import {
  durableNames,
  eventConsumerMetrics,
  usageStream,
  type Consumption,
  type EventConsumerMetrics,
  type EventStream,
  type Logger,
  type StreamEvent,
} from '@voice/runtime';
import { decodeUsageEvent } from './domain/usage-event.js';
import type { BillingStore } from './store/store.js';
import type { WalletEventsNotice } from './wallet-events.js';
import type { Wallets } from './wallets.js';

export interface UsageConsumerDeps {
  store: BillingStore;
  wallets: Wallets;
  walletEvents: WalletEventsNotice;
  logger: Logger;
  now: () => Date;
  /** The process's metrics of the billing-usage consumer unless given. */
  metrics?: EventConsumerMetrics;
}

export class UsageConsumer {
  private readonly metrics: EventConsumerMetrics;

  constructor(private readonly deps: UsageConsumerDeps) {
    this.metrics = deps.metrics ?? eventConsumerMetrics({ consumer: durableNames.billingUsage, stream: usageStream.name });
  }

  /** Ensures the usage stream and consumes it with billing's durable. */
  async start(stream: EventStream): Promise<Consumption> {
    await stream.ensureStream(usageStream.name, usageStream.subjects);
    return stream.consume({ stream: usageStream.name, durable: durableNames.billingUsage, subjects: usageStream.subjects, handler: (event) => this.handle(event) });
  }

  /**
   * Applies one delivery. Events that could never be applied (undecodable, incomplete, negative,
   * or for a workspace identity does not know) are logged and acknowledged; any other failure
   * rejects, and the event comes again.
   */
  async handle(event: StreamEvent): Promise<void> {
    try {
      await this.apply(event);
    } catch (error) {
      this.metrics.failed();
      throw error;
    }
  }

  private async apply(event: StreamEvent): Promise<void> {
    const decoded = decodeUsageEvent(event);
    if (!decoded.ok) {
      this.deps.logger.error('malformed usage event dropped', { event_id: event.id, subject: event.subject, problem: decoded.problem });
      this.metrics.failed();
      return;
    }
    const { charge } = decoded;
    try {
      await this.deps.wallets.open(charge.workspaceId);
    } catch (error) {
      if (ConnectError.from(error).code !== Code.NotFound) throw error;
      this.deps.logger.error('usage event for an unknown workspace dropped', { event_id: charge.eventId, workspace_id: charge.workspaceId });
      this.metrics.failed();
      return;
    }
    const outcome = await this.deps.store.applyUsage({ ...charge, now: this.deps.now().toISOString() });
    if (outcome.kind === 'wallet_missing') throw new Error(`wallet ${outcome.workspaceId} vanished after it was opened`);
    if (outcome.kind === 'already_applied') {
      this.metrics.duplicate();
      return;
    }
    this.deps.walletEvents.wake();
    this.metrics.applied(decoded.occurredAt ?? event.storedAt);
  }
}
