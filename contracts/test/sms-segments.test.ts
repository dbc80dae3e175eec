// SMS segmentation at the GSM 03.38 edges: encodings, single/multipart limits, characters that may
// not be split across segments, and the 10-segment ceiling.
import { maxSegments, segmentSms, tooLongIssue } from '../src/telephony/segments.js';

const gsm = (count: number, character = 'a') => character.repeat(count);
const emoji = '\u{1F600}'; // 😀, a surrogate pair: 2 UTF-16 code units

describe('encoding', () => {
  test('the GSM-7 default alphabet stays GSM-7, one septet each', () => {
    const body = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡AZÄÖÑÜ§¿azäöñüà';
    expect(segmentSms(body)).toEqual({ encoding: 'GSM-7', segments: 1, units: [...body].length });
  });

  test.each(['^', '{', '}', '\\', '[', ']', '~', '|', '€', '\f'])('extension character %j counts two septets', (character) => {
    expect(segmentSms(`a${character}`)).toEqual({ encoding: 'GSM-7', segments: 1, units: 3 });
  });

  test.each([
    ['a lower-case c cedilla (only the capital is GSM-7)', 'ç'],
    ['a Cyrillic letter', 'Ж'],
    ['a curly quote', '\u2019'],
    ['an emoji', emoji],
    ['the escape character itself', '\u001b'],
    ['a tab', '\t'],
  ])('%s switches the whole message to UCS-2', (_name, character) => {
    const result = segmentSms(`hello ${character}`);
    expect(result.encoding).toBe('UCS-2');
    expect(result.units).toBe(6 + character.length);
  });

  test('an empty body takes no segment; refusing it is the caller\'s decision', () => {
    expect(segmentSms('')).toEqual({ encoding: 'GSM-7', segments: 0, units: 0 });
  });
});

describe('GSM-7 limits', () => {
  test.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [153 * 3, 3],
    [153 * 3 + 1, 4],
    [1530, 10],
    [1531, 11],
  ])('%i septets take %i segments', (length, segments) => {
    expect(segmentSms(gsm(length))).toEqual({ encoding: 'GSM-7', segments, units: length });
  });

  test('80 euro signs are 160 septets in one segment; 81 take two', () => {
    expect(segmentSms(gsm(80, '€'))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(segmentSms(gsm(81, '€'))).toEqual({ encoding: 'GSM-7', segments: 2, units: 162 });
  });

  test('159 septets and an extension character overflow the single segment', () => {
    expect(segmentSms(`${gsm(159)}€`)).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
  });

  test('an extension character that would straddle a segment boundary moves to the next segment', () => {
    // 152 + 2 would split the escape from its character at septet 153.
    expect(segmentSms(`${gsm(152)}€${gsm(152)}`)).toEqual({ encoding: 'GSM-7', segments: 3, units: 306 });
    // The same 306 septets with the euro inside the first segment fit two segments exactly.
    expect(segmentSms(`${gsm(151)}€${gsm(153)}`)).toEqual({ encoding: 'GSM-7', segments: 2, units: 306 });
  });

  test('ten segments of extension characters hold 760 of them, not 765', () => {
    // Each 153-septet segment holds 76 two-septet characters (152 septets), the last septet stays empty.
    expect(segmentSms(gsm(760, '€')).segments).toBe(10);
    expect(segmentSms(gsm(761, '€')).segments).toBe(11);
  });
});

describe('UCS-2 limits', () => {
  const ucs = (count: number) => 'Ж'.repeat(count);

  test.each([
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [670, 10],
    [671, 11],
  ])('%i code units take %i segments', (length, segments) => {
    expect(segmentSms(ucs(length))).toEqual({ encoding: 'UCS-2', segments, units: length });
  });

  test('35 emoji fill one segment (70 code units); 36 need two', () => {
    expect(segmentSms(emoji.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(segmentSms(emoji.repeat(36))).toEqual({ encoding: 'UCS-2', segments: 2, units: 72 });
  });

  test('69 code units and an emoji overflow the single segment', () => {
    expect(segmentSms(`${ucs(69)}${emoji}`)).toEqual({ encoding: 'UCS-2', segments: 2, units: 71 });
  });

  test('a surrogate pair is never split at a segment boundary', () => {
    expect(segmentSms(`${ucs(66)}${emoji}${ucs(66)}`)).toEqual({ encoding: 'UCS-2', segments: 3, units: 134 });
    expect(segmentSms(`${ucs(65)}${emoji}${ucs(67)}`)).toEqual({ encoding: 'UCS-2', segments: 2, units: 134 });
  });
});

describe('tooLongIssue', () => {
  test('the ceiling is ten segments', () => {
    expect(maxSegments).toBe(10);
  });

  test('nothing to say about a body that fits', () => {
    expect(tooLongIssue(segmentSms(gsm(1530)))).toBeUndefined();
    expect(tooLongIssue(segmentSms('Ж'.repeat(670)))).toBeUndefined();
  });

  test('names the segments, encoding and length of a body that does not', () => {
    const gsmIssue = tooLongIssue(segmentSms(gsm(1531)));
    expect(gsmIssue).toMatch(/^is too long: it takes 11 GSM-7 segments \(1531 septets\); at most 10 segments are allowed/);
    expect(gsmIssue).toContain('1530 GSM-7 septets');
    expect(tooLongIssue(segmentSms('Ж'.repeat(671)))).toMatch(/11 UCS-2 segments \(671 UTF-16 code units\)/);
  });
});
