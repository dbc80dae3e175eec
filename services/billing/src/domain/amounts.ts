// Amounts inside billing: credits and minutes as safe integers of sub-units (the runtime's
// creditScale and minuteScale). The wire carries them as int64, which protobuf-es hands over
// as bigint; they are converted here, at the edge, and nowhere else.
import type { FieldIssue } from '@voice/runtime/errors';

export interface Units {
  creditUnits: number;
  minuteUnits: number;
}

/** An int64 amount as the generated messages carry it. */
export interface WireUnits {
  creditUnits: bigint;
  minuteUnits: bigint;
}

export const noUnits: Units = { creditUnits: 0, minuteUnits: 0 };

// `|| 0` keeps -0 out of stored and compared values.
export const negated = (units: Units): Units => ({ creditUnits: -units.creditUnits || 0, minuteUnits: -units.minuteUnits || 0 });

export const plus = (a: Units, b: Units): Units => ({ creditUnits: a.creditUnits + b.creditUnits, minuteUnits: a.minuteUnits + b.minuteUnits });

export const minus = (a: Units, b: Units): Units => plus(a, negated(b));

export const isZero = (units: Units): boolean => units.creditUnits === 0 && units.minuteUnits === 0;

/** The number an int64 stands for, or undefined when a JS number cannot hold it exactly. */
export function numberFromWire(value: bigint): number | undefined {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

export const unitsToWire = (units: Units): WireUnits => ({ creditUnits: BigInt(units.creditUnits), minuteUnits: BigInt(units.minuteUnits) });

/** Why these units cannot be consumed or moved: each must be a whole, non-negative, exact number. */
export function nonNegativeIssue(units: WireUnits): string | undefined {
  for (const [name, value] of [['credit_units', units.creditUnits], ['minute_units', units.minuteUnits]] as const) {
    if (value < 0n) return `${name} must not be negative`;
    if (numberFromWire(value) === undefined) return `${name} is too large`;
  }
  return undefined;
}

type ReadUnits = { ok: true; units: Units } | { ok: false; issues: FieldIssue[] };

/** An amount that may be zero (a capture of nothing): never negative in either unit, else the issues naming `field`. */
export function readNonNegative(amount: WireUnits | undefined, field: string): ReadUnits {
  if (!amount) return { ok: true, units: noUnits };
  const problem = nonNegativeIssue(amount);
  if (problem) return { ok: false, issues: [{ field, issue: problem }] };
  return { ok: true, units: { creditUnits: Number(amount.creditUnits), minuteUnits: Number(amount.minuteUnits) } };
}

/**
 * The amount of a Transfer or Authorize: never negative in either unit and positive in at least
 * one, else the issues naming `field`.
 */
export function readMovement(amount: WireUnits | undefined, field: string): ReadUnits {
  if (!amount) return { ok: false, issues: [{ field, issue: 'is required' }] };
  const read = readNonNegative(amount, field);
  if (read.ok && isZero(read.units)) return { ok: false, issues: [{ field, issue: 'must be positive in credit_units or minute_units' }] };
  return read;
}
