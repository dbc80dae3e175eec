// Delivery reports a carrier pushes while the send is still being recorded: the sandbox reports 5 ms
// after it took a message, which can be before the transaction that records the acceptance (and
// the carrier's id) commits, as it is on MongoDB. A report for a carrier id no message holds yet is
// tried again a few times, with growing pauses, before it is given up.
import type { Logger } from '@voice/runtime/logger';
import type { DeliveryStore, DeliveryUpdate, MessageRecord } from '../store/store.js';
import { smsStatusChangedEvent } from './status-events.js';

/** The pauses before each further try: about 10 s in all, beyond an acceptance's commit on a loaded database. */
export const deliveryRetryDelaysMs = [50, 100, 200, 400, 800, 1_600, 3_200, 3_200];

export async function recordDelivery(
  { store, wakeRelay }: { store: DeliveryStore; wakeRelay(): void },
  report: { carrierConnectionId: string | null; carrierMessageId: string; update: DeliveryUpdate },
  logger: Logger,
  delaysMs: readonly number[] = deliveryRetryDelaysMs,
): Promise<MessageRecord | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    const message = await store.applyDelivery(report.carrierConnectionId, report.carrierMessageId, report.update, smsStatusChangedEvent);
    if (message) wakeRelay();
    if (message || attempt >= delaysMs.length) {
      if (!message) logger.warn('delivery report for a message never recorded; dropped', { carrier_message_id: report.carrierMessageId, status: report.update.status });
      return message;
    }
    await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]).unref());
  }
}
