// The one rule on how far a change may take a wallet: its available balance (the balance less
// its open holds) never below zero, except in the issuer's wallet.
import { minus, plus, type Units } from './amounts.js';

/** Whether a change may take a non-issuer wallet's available balance below zero. */
export type Overdraft = 'refused' | 'allowed';

/** Transfers and holds spend what the wallet has available: never more. */
export const spendingOverdraft: Overdraft = 'refused';

/**
 * A use that reaches billing without a hold to capture records a service already delivered
 * (usage events of producers from before holds, or a capture arriving after its hold expired):
 * refusing it would only lose it. It is applied even when it takes the wallet below zero, and the
 * shortfall then stops further spending until the wallet is topped up.
 */
export const deliveredOverdraft: Overdraft = 'allowed';

/** What the wallet may still spend, move or hold: the balance less its open holds. */
export const availableOf = (wallet: { balance: Units; held: Units }): Units => minus(wallet.balance, wallet.held);

/**
 * Whether adding `delta` to the balance and `heldDelta` to the holds keeps the wallet within its
 * bound: with overdraft refused, a unit whose available amount the change lowers may not end below
 * zero in a non-issuer wallet. The issuer (the root platform's wallet) creates credits and has no
 * lower bound.
 */
export function withinBound(wallet: { balance: Units; held: Units; issuer: boolean }, delta: Units, heldDelta: Units, overdraft: Overdraft): boolean {
  if (overdraft === 'allowed' || wallet.issuer) return true;
  const change = minus(delta, heldDelta);
  const after = availableOf({ balance: plus(wallet.balance, delta), held: plus(wallet.held, heldDelta) });
  const lowersBelowZero = (by: number, result: number) => by < 0 && result < 0;
  return !lowersBelowZero(change.creditUnits, after.creditUnits) && !lowersBelowZero(change.minuteUnits, after.minuteUnits);
}
