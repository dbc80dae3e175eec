// Phone-number rules decided by libphonenumber: parsing to E.164, US and 10DLC classification, and
// the deterministic example numbers the sandbox sells.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { exampleNumbers, isNanpCountry, isUsNumber, isUsTenDlc, nanpAreaCode, nationalNumberOf, parseE164 } from '../src/telephony/phone.js';

describe('parseE164', () => {
  test.each([
    ['+14155550123', '+14155550123', 'US'],
    ['+1 415 555 0123', '+14155550123', 'US'],
    ['+1-415-555-0123', '+14155550123', 'US'],
    ['+1 (415) 555-0123', '+14155550123', 'US'],
    ['+1.415.555.0123', '+14155550123', 'US'],
    ['+1 416 555 0123', '+14165550123', 'CA'],
    ['+44 7400 123456', '+447400123456', 'GB'],
    ['+49 151 23456789', '+4915123456789', 'DE'],
    ['+33 6 12 34 56 78', '+33612345678', 'FR'],
    ['+61 412 345 678', '+61412345678', 'AU'],
    ['+18005550123', '+18005550123', 'US'],
  ])('%j is %s in %s', (text, number, country) => {
    expect(parseE164(text)).toEqual({ number, country });
  });

  test.each([
    ['no leading plus', '14155550123'],
    ['a national number', '(415) 555-0123'],
    ['an unassigned area code', '+11115550123'],
    ['too short', '+1415555012'],
    ['too long', '+141555501234'],
    ['an unknown country code', '+9995550123'],
    ['letters around it', 'call +14155550123 now'],
    ['surrounding spaces (the library does not strip them)', ' +14155550123 '],
    ['a plus only', '+'],
    ['a non-geographic (+800) number, which has no country', '+80012345678'],
    ['an extension', '+1 415 555 0123 ext. 5'],
    ['a trailing newline', '+14155550123\n'],
    ['empty', ''],
  ])('refuses %s', (_name, text) => {
    expect(parseE164(text)).toBeUndefined();
  });
});

describe('isUsNumber and isUsTenDlc', () => {
  test.each([
    ['a US geographic number', '+14155550123', true, true],
    ['another US area code', '+12125550123', true, true],
    ['a US toll-free number', '+18005550123', true, false],
    ['a US toll-free 888 number', '+18885550123', true, false],
    ['a US personal-communications (500) number', '+15005550006', true, false],
    ['a Canadian number (same +1, not US)', '+14165550123', false, false],
    ['a UK mobile', '+447400123456', false, false],
    ['an invalid number', '+11115550123', false, false],
  ])('%s', (_name, number, us, tenDlc) => {
    expect(isUsNumber(number)).toBe(us);
    expect(isUsTenDlc(number)).toBe(tenDlc);
  });
});

describe('helpers', () => {
  test('NANP countries are those of calling code 1', () => {
    expect(['US', 'CA', 'us'].map(isNanpCountry)).toEqual([true, true, true]);
    expect(['GB', 'DE', 'XX'].map(isNanpCountry)).toEqual([false, false, false]);
  });

  test('area code and national number', () => {
    expect(nanpAreaCode('+14155550123')).toBe('415');
    expect(nanpAreaCode('+447400123456')).toBeUndefined();
    expect(nationalNumberOf('+447400123456')).toBe('7400123456');
    expect(nationalNumberOf('+1')).toBeUndefined();
  });
});

describe('exampleNumbers', () => {
  test.each(['US', 'CA', 'GB', 'DE', 'FR', 'AU', 'ES', 'JP'])('%s: valid, distinct long codes of that country', (country) => {
    const numbers = exampleNumbers(country, undefined, 25);
    expect(numbers).toHaveLength(25);
    expect(new Set(numbers).size).toBe(25);
    for (const number of numbers) {
      const parsed = parsePhoneNumberFromString(number);
      expect(parsed?.isValid()).toBe(true);
      expect(parsed?.country).toBe(country);
      expect(parsed?.number).toBe(number);
      expect(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE']).toContain(parsed?.getType());
    }
  });

  test('the same numbers every time, and a shorter list is a prefix of a longer one', () => {
    expect(exampleNumbers('GB', undefined, 10)).toEqual(exampleNumbers('GB', undefined, 10));
    expect(exampleNumbers('US', '415', 20).slice(0, 5)).toEqual(exampleNumbers('US', '415', 5));
  });

  test('an area code selects NANP numbers in it', () => {
    const numbers = exampleNumbers('US', '415', 10);
    expect(numbers).toHaveLength(10);
    for (const number of numbers) expect(nanpAreaCode(number)).toBe('415');
    expect(exampleNumbers('CA', '416', 3).every((number) => number.startsWith('+1416') && parseE164(number)?.country === 'CA')).toBe(true);
  });

  test('an area code of another country, a toll-free code or nonsense gives nothing', () => {
    expect(exampleNumbers('US', '416', 5)).toEqual([]);
    expect(exampleNumbers('CA', '415', 5)).toEqual([]);
    expect(exampleNumbers('US', '800', 5)).toEqual([]);
    expect(exampleNumbers('US', '41a', 5)).toEqual([]);
    expect(exampleNumbers('US', '', 5)).toEqual([]);
    expect(exampleNumbers('XX', undefined, 5)).toEqual([]);
  });
});
