// Follows billing's wallet changes, in order, with the webhooks durable: a change that takes a
// workspace's available credits below its threshold sends balance.low to the endpoints that want
// it, once per crossing (noted with the event in one transaction); one at or above it re-arms it.
import { durableNames, walletStream, type Consumption, type EventStream } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import type { SettingsStore } from '../store/store.js';
import type { FanOut } from './fan-out.js';
import { balanceLowEvent, walletAvailability } from './sources.js';

export async function consumeWalletChanges(
  stream: EventStream,
  deps: { store: SettingsStore; fanOut: FanOut; clock: () => Date; logger: Logger },
): Promise<Consumption> {
  await stream.ensureStream(walletStream.name, walletStream.subjects);
  return stream.consume({
    stream: walletStream.name,
    durable: durableNames.webhooksWallets,
    subjects: walletStream.subjects,
    handler: async (event) => {
      let change;
      try {
        change = walletAvailability(event);
      } catch (error) {
        deps.logger.error('undecodable wallet change dropped', { event_id: event.id, error });
        return;
      }
      if (!change) return;
      const settings = await deps.store.getSettings(change.workspaceId);
      if (settings?.balanceLowThresholdUnits == null) return;
      if (change.availableUnits >= settings.balanceLowThresholdUnits) {
        if (settings.balanceLow) await deps.store.clearBalanceLow(change.workspaceId);
        return;
      }
      if (settings.balanceLow) return;
      const planned = await deps.fanOut.plan(balanceLowEvent(change, settings.balanceLowThresholdUnits), deps.clock());
      await deps.store.markBalanceLow(change.workspaceId, planned);
    },
  });
}
