// The periodic job that sends due deliveries (on one replica at a time, under its KV lease): each
// run takes a batch (held, so an attempt that dies leaves it due again), sends them side by side,
// and records each outcome: delivered on 2xx, else retried with backoff until its give-up time; an
// endpoint failing for three days is disabled (with a notice to its owners, handed over by every run).
import { forEachConcurrently } from '@voice/runtime/events';
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { Logger } from '@voice/runtime/logger';
import { newId } from '@voice/runtime/ids';
import { failedTooLong, retryDelayMs } from '../domain/retries.js';
import type { EndpointSecrets } from '../endpoints/secrets.js';
import type { AttemptOutcome, ClaimedDelivery, DeliveryStore } from '../store/store.js';
import type { OwnerNotices } from './owner-notices.js';
import { isDelivered, sendEvent, type SendOptions } from './sender.js';

/** Deliveries sent at once by the worker holding the job. */
const sendConcurrency = 16;

export const dispatchJobName = 'webhooks.deliveries';

export interface DispatcherDeps {
  store: DeliveryStore;
  secrets: EndpointSecrets;
  send: SendOptions;
  notices: OwnerNotices;
  logger: Logger;
  periodMs: number;
  random?: () => number;
}

export function deliveryDispatchJob(deps: DispatcherDeps): PeriodicJob {
  // Long enough for an attempt to end: a worker that dies holding a delivery leaves it due again after this.
  const holdMs = deps.send.timeoutMs * 2 + 5_000;
  return {
    name: dispatchJobName,
    periodMs: deps.periodMs,
    batchSize: 100,
    run: async ({ now, signal, batchSize }) => {
      const noticed = await deps.notices.flush(now, 20);
      const claimed = await deps.store.claimDue(now.toISOString(), new Date(now.getTime() + holdMs).toISOString(), batchSize);
      await forEachConcurrently(claimed, sendConcurrency, async (item) => {
        if (!signal.aborted) await attempt(item, now, deps);
      });
      return claimed.length + noticed;
    },
  };
}

async function attempt({ delivery, body, endpoint }: ClaimedDelivery, now: Date, deps: DispatcherDeps): Promise<void> {
  const record = await sendEvent(
    { url: endpoint.url, body, eventId: delivery.eventId, eventType: delivery.eventType, secrets: deps.secrets.signing(endpoint.secrets, now) },
    now,
    deps.send,
  );
  const outcome: AttemptOutcome = isDelivered(record)
    ? { kind: 'delivered' }
    : now.getTime() >= Date.parse(delivery.giveUpAt)
      ? { kind: 'failed' }
      : { kind: 'retry', nextAttemptAt: new Date(now.getTime() + retryDelayMs(delivery.attempts.length + 1, deps.random)).toISOString() };
  await deps.store.recordAttempt(delivery, record, outcome);
  deps.logger.info('webhook delivery attempted', {
    delivery_id: delivery.id,
    endpoint_id: endpoint.id,
    event_id: delivery.eventId,
    status_code: record.statusCode,
    error: record.error,
    outcome: outcome.kind,
  });
  if (outcome.kind === 'delivered' || !failedTooLong(endpoint.failingSince, now)) return;
  const notice = { id: newId(), workspaceId: endpoint.workspaceId, endpointId: endpoint.id, url: endpoint.url, failingSince: endpoint.failingSince!, createdAt: now.toISOString() };
  if (!(await deps.store.disableEndpoint(endpoint.id, 'failing', notice))) return;
  deps.logger.warn('webhook endpoint disabled after failing for three days', { endpoint_id: endpoint.id, workspace_id: endpoint.workspaceId });
  await deps.notices.flush(now, 20);
}
