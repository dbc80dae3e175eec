// The telephony handlers over a real store and carrier directory, called as the gateway would:
// with a caller in the context. This is the handlers' own tier: billing is not behind them, its
// holds are granted and recorded here (test/ runs the whole path, real billing included).
import { createContextValues, type HandlerContext } from '@connectrpc/connect';
import { callerKey, type Caller } from '@voice/runtime/caller';
import type { SecretBox } from '@voice/runtime/crypto';
import { createLogger } from '@voice/runtime/logger';
import type { BillingHolds, HoldRequest } from '../src/billing/holds.js';
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
  holds?: BillingHolds;
}

/** Grants every hold and keeps the requests, for tests that check what was held. */
export class GrantedHolds implements BillingHolds {
  readonly requests: HoldRequest[] = [];

  async authorize(request: HoldRequest) {
    this.requests.push(request);
    return { kind: 'held' as const };
  }

  async release(): Promise<void> {}
}

export function serviceOver(parts: HarnessParts) {
  return telephonyService({
    store: parts.store,
    box: parts.box,
    carriers: parts.carriers,
    pricing: parts.pricing ?? { feePerSegmentUnits: 100, carrierPerSegmentUnits: 0, numberMonthlyUnits: 0 },
    holds: parts.holds ?? new GrantedHolds(),
    numberTerms: { monthlyUnits: parts.pricing?.numberMonthlyUnits ?? 0, graceMs: 7 * 24 * 3600 * 1000 },
    smsHoldSeconds: 3_600,
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
