// What a hold reserves and what its capture debits: the rule that a wallet's included minutes
// are used before credits (API.md 10), with the minutes they do not cover paid in credits at the
// hold's per-minute rate, and the rule that a capture never takes more than the hold reserved.
import { minuteScale } from '@voice/runtime/amounts';
import { availableOf } from './balance.js';
import type { Units } from './amounts.js';

export type HoldStatus = 'open' | 'captured' | 'released' | 'expired';

/** Holds live at most this long: beyond it a reservation is a forgotten one. */
export const maxHoldSeconds = 7 * 24 * 60 * 60;

/**
 * Credit sub-units for `minuteUnits` (thousandths of a minute) at `creditUnitsPerMinute`, rounded
 * up to a whole sub-unit so a fraction is never given away; undefined beyond the safe range.
 */
export function creditsForMinutes(minuteUnits: number, creditUnitsPerMinute: number): number | undefined {
  const exact = BigInt(minuteUnits) * BigInt(creditUnitsPerMinute);
  const scale = BigInt(minuteScale);
  const units = (exact + scale - 1n) / scale;
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : undefined;
}

export interface HoldRequest {
  amount: Units;
  /** 0: the hold reserves `amount` as it is. */
  creditUnitsPerMinute: number;
}

export type HoldPlan = { ok: true; held: Units } | { ok: false; available: Units };

/**
 * What a hold reserves of this wallet, or the available balance that refuses it. With a rate, the
 * wallet's available included minutes cover what they can and the rest is reserved as credits; the
 * issuer, having no bound, reserves minutes as asked.
 */
export function planHold(wallet: { balance: Units; held: Units; issuer: boolean }, request: HoldRequest): HoldPlan | undefined {
  const available = availableOf(wallet);
  const { amount, creditUnitsPerMinute } = request;
  let held = amount;
  if (creditUnitsPerMinute > 0 && !wallet.issuer) {
    const fromIncluded = Math.min(amount.minuteUnits, Math.max(available.minuteUnits, 0));
    const inCredits = creditsForMinutes(amount.minuteUnits - fromIncluded, creditUnitsPerMinute);
    if (inCredits === undefined || !Number.isSafeInteger(amount.creditUnits + inCredits)) return undefined;
    held = { creditUnits: amount.creditUnits + inCredits, minuteUnits: fromIncluded };
  }
  if (wallet.issuer) return { ok: true, held };
  const fits = (want: number, have: number) => want === 0 || want <= have;
  return fits(held.creditUnits, available.creditUnits) && fits(held.minuteUnits, available.minuteUnits) ? { ok: true, held } : { ok: false, available };
}

/**
 * What capturing `used` debits from a hold: minutes from the held minutes first, the rest in credits
 * at the hold's rate, plus the credits used. Undefined when that is more than the hold reserved (or
 * the hold has no rate for minutes beyond its own).
 */
export function captureOf(hold: { held: Units; creditUnitsPerMinute: number }, used: Units): Units | undefined {
  const minuteUnits = Math.min(used.minuteUnits, hold.held.minuteUnits);
  const beyond = used.minuteUnits - minuteUnits;
  if (beyond > 0 && hold.creditUnitsPerMinute === 0) return undefined;
  const inCredits = beyond > 0 ? creditsForMinutes(beyond, hold.creditUnitsPerMinute) : 0;
  if (inCredits === undefined) return undefined;
  const creditUnits = used.creditUnits + inCredits;
  return creditUnits <= hold.held.creditUnits ? { creditUnits, minuteUnits } : undefined;
}
