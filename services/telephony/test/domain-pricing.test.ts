// SMS and number prices: read exactly from the environment, and the per-message rule.
import { formatCredits } from '@voice/runtime/amounts';
import { ConfigError } from '@voice/runtime/config';
import { readSmsPricing, smsPriceUnits } from '../src/domain/pricing.js';

describe('readSmsPricing', () => {
  test('defaults', () => {
    expect(readSmsPricing({})).toEqual({ feePerSegmentUnits: 100, carrierPerSegmentUnits: 79, numberMonthlyUnits: 11_500 });
  });

  test('blank values fall back to the defaults', () => {
    expect(readSmsPricing({ VOICE_SMS_CREDITS_PER_SEGMENT: '  ', VOICE_NUMBER_MONTHLY_CREDITS: '' })).toEqual(readSmsPricing({}));
  });

  test('decimal values are read exactly, without binary floating point', () => {
    const pricing = readSmsPricing({
      VOICE_SMS_CREDITS_PER_SEGMENT: '0.0003',
      VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT: '0.1',
      VOICE_NUMBER_MONTHLY_CREDITS: ' 2 ',
    });
    expect(pricing).toEqual({ feePerSegmentUnits: 3, carrierPerSegmentUnits: 1000, numberMonthlyUnits: 20_000 });
    expect(formatCredits(smsPriceUnits(pricing, 3, 'marketplace'))).toBe('0.3009');
  });

  test('zero is a price', () => {
    expect(readSmsPricing({ VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT: '0' }).carrierPerSegmentUnits).toBe(0);
  });

  test.each([
    ['VOICE_SMS_CREDITS_PER_SEGMENT', '0.00001'],
    ['VOICE_SMS_CREDITS_PER_SEGMENT', '-0.01'],
    ['VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT', 'abc'],
    ['VOICE_SMS_CARRIER_CREDITS_PER_SEGMENT', '1e-3'],
    ['VOICE_NUMBER_MONTHLY_CREDITS', '1,15'],
    ['VOICE_NUMBER_MONTHLY_CREDITS', '99999999999999999'],
  ])('%s=%j is refused, naming the variable', (name, value) => {
    const read = () => readSmsPricing({ [name]: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(new RegExp(`^Invalid configuration: ${name} .*"${value.replace('.', '\\.')}"`));
  });
});

describe('smsPriceUnits', () => {
  const pricing = readSmsPricing({});

  test('marketplace numbers pay the fee and the carrier pass-through per segment', () => {
    expect(smsPriceUnits(pricing, 1, 'marketplace')).toBe(179);
    expect(formatCredits(smsPriceUnits(pricing, 3, 'marketplace'))).toBe('0.0537');
  });

  test('imported numbers pay only the platform fee', () => {
    expect(smsPriceUnits(pricing, 1, 'imported')).toBe(100);
    expect(formatCredits(smsPriceUnits(pricing, 10, 'imported'))).toBe('0.1000');
  });

  test('no segments cost nothing; a fractional or negative count is a bug', () => {
    expect(smsPriceUnits(pricing, 0, 'marketplace')).toBe(0);
    expect(() => smsPriceUnits(pricing, 1.5, 'imported')).toThrow(RangeError);
    expect(() => smsPriceUnits(pricing, -1, 'imported')).toThrow(RangeError);
  });
});
