// How a call's length becomes billed minutes, and how many whole minutes a wallet can hold for a
// call. Minutes are integer sub-units (1/1,000 minute) as billing keeps them; nothing here is
// binary floating point.
import { minuteScale } from '@voice/runtime/amounts';

/**
 * VOICE_CALL_MINUTE_ROUNDING: `minute` bills every started minute (61 s is 2 minutes, the
 * default); `second` bills the exact seconds, rounded up to a minute sub-unit.
 */
export const minuteRoundings = ['minute', 'second'] as const;
export type MinuteRounding = (typeof minuteRoundings)[number];

/** The minute sub-units billed for a call that lasted `seconds` whole seconds. */
export function billedMinuteUnits(seconds: number, rounding: MinuteRounding): number {
  if (seconds <= 0) return 0;
  if (rounding === 'minute') return Math.ceil(seconds / 60) * minuteScale;
  return Math.ceil((seconds * minuteScale) / 60);
}

/** Whole minutes a call of at most `seconds` can last. */
export const minutesFor = (seconds: number): number => Math.ceil(seconds / 60);

/**
 * The most whole minutes an available balance covers, included minutes first and the rest in credits
 * at `creditUnitsPerMinute` (billing rounds a fraction of a credit sub-unit up, so this never
 * promises more than billing will hold).
 */
export function coveredMinutes(available: { minuteUnits: number; creditUnits: number }, creditUnitsPerMinute: number): number {
  const minuteUnits = Math.max(0, available.minuteUnits);
  const creditUnits = Math.max(0, available.creditUnits);
  const boughtMinuteUnits = Math.floor((creditUnits * minuteScale) / creditUnitsPerMinute);
  return Math.floor((minuteUnits + boughtMinuteUnits) / minuteScale);
}
