// The telephony handlers over a real store and carrier directory, called as the gateway would:
// with a caller in the context. No billing behind them (balance checks answer nothing).
import { createContextValues, type HandlerContext } from '@connectrpc/connect';
import { callerKey, createLogger, type Caller, type SecretBox } from '@voice/runtime';
import type { CarrierDirectory } from '../src/carriers/directory.js';
import type { SmsPricing } from '../src/pricing.js';
import { telephonyService } from '../src/routes.js';
import type { TelephonyStore } from '../src/store/store.js';

export interface HarnessParts {
  store: TelephonyStore;
  box: SecretBox;
  carriers: CarrierDirectory;
  pricing?: SmsPricing;
  wakeRelay?: () => void;
  now?: () => Date;
}

export function serviceOver(parts: HarnessParts) {
  return telephonyService({
    store: parts.store,
    box: parts.box,
    carriers: parts.carriers,
    pricing: parts.pricing ?? { feePerSegmentUnits: 100, carrierPerSegmentUnits: 0, numberMonthlyUnits: 0 },
    balances: { current: async () => undefined },
    wakeRelay: parts.wakeRelay ?? (() => undefined),
    now: parts.now ?? (() => new Date()),
    logger: createLogger({ service: 'telephony-test', level: 'silent' }),
  });
}

/** A handler context whose caller is the workspace's service account (or the given caller). */
export function contextOf(workspaceId: string, caller?: Caller): HandlerContext {
  const who = caller ?? { workspaceId, principal: { type: 'service_account', id: 'k1', name: 'test' }, scopes: null, requestId: 'r1' };
  return { values: createContextValues().set(callerKey, who) } as unknown as HandlerContext;
}
