// The one rule on how far a change may take a wallet's balance.
import { plus, type Units } from './amounts.js';

/** Whether a change may take a non-issuer wallet below zero. */
export type Overdraft = 'refused' | 'allowed';

/** Transfers and debits spend what the wallet holds: never more. */
export const spendingOverdraft: Overdraft = 'refused';

/**
 * A usage charge records a service that was already delivered: the producer authorised it
 * against its own view of the wallet (which may lag behind billing), so refusing the charge
 * now would only lose it. It is always applied, even when it takes a non-issuer wallet below
 * zero; the negative balance then stops further spending until the wallet is topped up.
 */
export const usageOverdraft: Overdraft = 'allowed';

/**
 * The balance after adding `delta`, or undefined when the change is refused: with overdraft
 * refused, a unit the change lowers may not end below zero in a non-issuer wallet. The issuer
 * (the root platform's wallet) creates credits and has no lower bound.
 */
export function balanceAfter(wallet: { balance: Units; issuer: boolean }, delta: Units, overdraft: Overdraft): Units | undefined {
  const next = plus(wallet.balance, delta);
  if (overdraft === 'allowed' || wallet.issuer) return next;
  const lowersBelowZero = (change: number, result: number) => change < 0 && result < 0;
  if (lowersBelowZero(delta.creditUnits, next.creditUnits) || lowersBelowZero(delta.minuteUnits, next.minuteUnits)) return undefined;
  return next;
}
