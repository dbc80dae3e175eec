// What the telephony handlers need; main.ts builds it once.
import type { Logger, SecretBox } from '@voice/runtime';
import type { CarrierDirectory } from '../carriers/directory.js';
import type { BillingBalances } from '../credits/billing-balances.js';
import type { SmsPricing } from '../pricing.js';
import type { TelephonyStore } from '../store/store.js';

export interface TelephonyDeps {
  store: TelephonyStore;
  /** Seals carrier credentials at rest. */
  box: SecretBox;
  carriers: CarrierDirectory;
  pricing: SmsPricing;
  /** Billing's current word on a wallet, when billing answers. */
  balances: BillingBalances;
  /** Asks the outbox relay to publish now (after a usage event committed). */
  wakeRelay(): void;
  now(): Date;
  logger: Logger;
}
