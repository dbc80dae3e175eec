// What SMS and marketplace numbers cost, in credit sub-units (runtime amounts.ts): read once from
// the environment, exactly, and the one rule that prices a message.
import { creditScale, parseCredits } from '@voice/runtime/amounts';
import { ConfigError, readOptionalString, type Env } from '@voice/runtime/config';
import type { NumberSource } from '../store/store.js';

export interface SmsPricing {
  /** The platform's fee per segment, charged for every message. */
  feePerSegmentUnits: number;
  /** The carrier's price per segment, passed through for marketplace numbers (imported ones pay their carrier directly). */
  carrierPerSegmentUnits: number;
  /** Monthly price of a marketplace number, shown in search results. */
  numberMonthlyUnits: number;
}

const defaults = {
  VOICE_SMS_CREDITS_PER_SEGMENT: '0.0100',
  VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT: '0.0079',
  VOICE_NUMBER_MONTHLY_CREDITS: '1.1500',
} as const;

function readCredits(env: Env, name: keyof typeof defaults): number {
  const text = readOptionalString(env, name) ?? defaults[name];
  const units = parseCredits(text);
  if (units === undefined || units < 0) {
    const places = Math.round(Math.log10(creditScale));
    throw new ConfigError(name, `must be a non-negative decimal amount of credits with at most ${places} decimal places, got "${text}"`);
  }
  return units;
}

export function readSmsPricing(env: Env): SmsPricing {
  return {
    feePerSegmentUnits: readCredits(env, 'VOICE_SMS_CREDITS_PER_SEGMENT'),
    carrierPerSegmentUnits: readCredits(env, 'VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT'),
    numberMonthlyUnits: readCredits(env, 'VOICE_NUMBER_MONTHLY_CREDITS'),
  };
}

/** The credit sub-units a message of `segments` segments costs when sent from a number of this source. */
export function smsPriceUnits(pricing: SmsPricing, segments: number, source: NumberSource): number {
  if (!Number.isSafeInteger(segments) || segments < 0) throw new RangeError(`not a segment count: ${segments}`);
  const perSegment = pricing.feePerSegmentUnits + (source === 'marketplace' ? pricing.carrierPerSegmentUnits : 0);
  const units = segments * perSegment;
  if (!Number.isSafeInteger(units)) throw new RangeError(`price out of range: ${segments} segments at ${perSegment} units`);
  return units;
}
