// Concurrency slots as the configuration asks for them: with NATS_URL, in a JetStream key-value
// bucket every replica shares, named in the platform's event namespace; otherwise in this
// process's memory. No memory stand-in while NATS is away: the slots' point is the exact count
// across replicas (and the work they bound comes from JetStream anyway).
import type { CommonConfig } from '../config/service-config.js';
import { namespacedName } from '../events/namespaced.js';
import { ConcurrencySlots, MemorySlotTable, type ConcurrencySlotsOptions } from './concurrency-slots.js';
import { NatsSlotTable } from './nats-slot-table.js';

/** Calls of each campaign in progress (its max_concurrent), and each person's line (one call at a time), across the dialer's replicas. */
export const campaignCallSlotsBucket = 'voice_campaign_call_slots';

/** A group untouched this long is gone: far beyond any call. */
const slotTtlMs = 24 * 3600_000;

export async function openConcurrencySlots(
  common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>,
  bucket: typeof campaignCallSlotsBucket,
  options: ConcurrencySlotsOptions,
): Promise<ConcurrencySlots> {
  const table = common.natsUrl ? await NatsSlotTable.connect(common.natsUrl, namespacedName(common.eventNamespace, bucket), slotTtlMs, common.natsReplicas) : new MemorySlotTable();
  return new ConcurrencySlots(table, options);
}
