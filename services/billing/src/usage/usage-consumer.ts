// Applies the usage stream to the ledger: an event naming a hold captures it (or, for a use of
// nothing, releases it), once however often it comes; an event without one (producers from
// before holds) is charged once per event id. Each in one transaction with its WalletChanged
// event. Resolving the handler acknowledges. Each delivery's outcome and each applied event's lag
// are recorded as metrics.
import { Code, ConnectError } from '@connectrpc/connect';
import { durableNames, usageStream, type Consumption, type EventStream, type StreamEvent } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import { eventConsumerMetrics, type EventConsumerMetrics } from '@voice/runtime/metrics';
import { isZero } from '../domain/amounts.js';
import { captureInput } from '../domain/requests.js';
import { decodeUsageEvent, type UsageCharge } from '../domain/usage-event.js';
import type { HoldStore, UsageStore } from '../store/store.js';
import type { WalletEventsNotice } from '../wallets/wallet-events.js';
import type { Wallets } from '../wallets/wallets.js';

/** Usage events handled at once by one billing process. */
const usageConcurrency = 8;

/**
 * How long JetStream waits for the ack of a delivered event before it hands the event out again.
 * A live handler keeps its event by reporting progress, so this bounds only the wait for an event
 * whose delivery went nowhere: a replica that died holding it, or one that reached the client just
 * after its fetch had closed (a loaded machine makes that race likely).
 */
const usageAckWaitMs = 5_000;

export interface UsageConsumerDeps {
  store: UsageStore & HoldStore;
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

  /**
   * Ensures the usage stream and consumes it with billing's durable, several events at once: each
   * settles its own hold (or is charged once by its own id) in one transaction, so neither a copy
   * nor the order in which events complete changes the ledger.
   */
  async start(stream: EventStream): Promise<Consumption> {
    await stream.ensureStream(usageStream.name, usageStream.subjects);
    return stream.consume({
      stream: usageStream.name,
      durable: durableNames.billingUsage,
      subjects: usageStream.subjects,
      handler: (event) => this.handle(event),
      concurrency: usageConcurrency,
      ackWaitMs: usageAckWaitMs,
    });
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
    const applied = charge.holdId ? await this.settleHold(charge) : await this.charge(charge);
    if (applied === 'duplicate') {
      this.metrics.duplicate();
      return;
    }
    if (applied === 'dropped') {
      this.metrics.failed();
      return;
    }
    this.deps.walletEvents.wake();
    this.metrics.applied(decoded.occurredAt ?? event.storedAt);
  }

  /** A use without a hold (or whose hold billing never saw): charged once per event id. */
  private async charge(charge: UsageCharge): Promise<'applied' | 'duplicate'> {
    const outcome = await this.deps.store.applyUsage({ ...charge, now: this.deps.now().toISOString() });
    if (outcome.kind === 'wallet_missing') throw new Error(`wallet ${outcome.workspaceId} vanished after it was opened`);
    return outcome.kind === 'already_applied' ? 'duplicate' : 'applied';
  }

  /**
   * Captures the event's hold for what was used, or releases it when nothing was. The hold makes
   * it idempotent: a copy finds it captured (or released) by the same use.
   */
  private async settleHold(charge: UsageCharge): Promise<'applied' | 'duplicate' | 'dropped'> {
    const now = this.deps.now().toISOString();
    const log = { event_id: charge.eventId, workspace_id: charge.workspaceId, hold_id: charge.holdId };
    if (isZero(charge.consumed)) {
      const released = await this.deps.store.release({ workspaceId: charge.workspaceId, holdId: charge.holdId, now });
      if (released.kind === 'released') return 'applied';
      if (released.kind === 'captured') this.deps.logger.error('a release event for a hold that was captured; the capture stands', log);
      // Already released or expired, or never authorized (the producer gave up before billing answered).
      return 'duplicate';
    }
    const outcome = await this.deps.store.capture({
      ...captureInput(charge.workspaceId, charge.holdId, charge.consumed, charge.description),
      now,
      afterSettled: 'charge',
      appliedUsageEventId: charge.eventId,
    });
    switch (outcome.kind) {
      case 'captured':
        if (outcome.afterSettled) {
          this.deps.logger.error('a use captured a hold that had expired: charged as delivered, which may take the wallet below zero', log);
        }
        return 'applied';
      case 'replayed':
        return 'duplicate';
      case 'hold_missing':
        this.deps.logger.error('a use names a hold billing never authorized: charged as delivered', log);
        return this.charge(charge);
      case 'already_captured':
      case 'exceeds_hold':
      case 'not_open':
        this.deps.logger.error('a use that its hold cannot take was dropped', { ...log, outcome: outcome.kind });
        return 'dropped';
    }
  }
}
