// A carrier's delivery report, whichever way it came (the sandbox's in-process report, a status
// callback through the gateway): it moves its message forward, or waits in the store for the send's
// acceptance when it came before that was recorded (a carrier can report first).
import type { DeliveryStore, DeliveryUpdate, MessageRecord } from '../store/store.js';
import { smsStatusChangedEvent } from './status-events.js';

export async function recordDelivery(
  { store, wakeRelay }: { store: DeliveryStore; wakeRelay(): void },
  report: { carrierConnectionId: string | null; carrierMessageId: string; update: DeliveryUpdate },
): Promise<MessageRecord | undefined> {
  const message = await store.applyDelivery(report.carrierConnectionId, report.carrierMessageId, report.update, smsStatusChangedEvent);
  if (message) wakeRelay();
  return message;
}
