// Phone-number rules, all decided by libphonenumber's full ("max") metadata so that number types
// (mobile, fixed line, toll-free, ...) are known; nothing here validates numbers by hand.
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode, type NumberType, type PhoneNumber } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';

export interface ParsedNumber {
  /** E.164, e.g. "+14155550123". */
  number: string;
  /** ISO 3166-1 alpha-2 of the number's region. */
  country: string;
}

/** Ordinary geographic or mobile numbers ("long codes"), as opposed to toll-free, premium, personal, ... */
const longCodeTypes: ReadonlySet<NumberType> = new Set<NumberType>(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);

type RegionalNumber = PhoneNumber & { country: CountryCode };

/**
 * Numbers parsed lately, by their text: validating against the full metadata costs ~0.1 ms, and a
 * send reads its numbers several times (the request's check, the send, the carrier) while a
 * workspace's own numbers recur in every send. Bounded; dropped whole when full.
 */
const recentlyParsed = new Map<string, RegionalNumber | undefined>();
const recentlyParsedLimit = 4096;

/** The whole text as one valid international number (leading '+') of a country, without an extension, or undefined. */
function parseInternational(text: string): RegionalNumber | undefined {
  if (recentlyParsed.has(text)) return recentlyParsed.get(text);
  const result = parseOnce(text);
  if (recentlyParsed.size >= recentlyParsedLimit) recentlyParsed.clear();
  recentlyParsed.set(text, result);
  return result;
}

function parseOnce(text: string): RegionalNumber | undefined {
  if (!text.startsWith('+')) return undefined;
  const parsed = parsePhoneNumberFromString(text, { extract: false });
  const usable = parsed?.isValid() && parsed.country !== undefined && parsed.ext === undefined;
  return usable ? (parsed as RegionalNumber) : undefined;
}

/**
 * The E.164 form and region of a number written internationally ("+1 415-555-0123" included: spaces,
 * dashes, dots and brackets are normalised as libphonenumber allows), or undefined when it is not a
 * valid number of a country (non-geographic ranges such as +800 have none) or carries an extension.
 */
export function parseE164(text: string): ParsedNumber | undefined {
  const parsed = parseInternational(text);
  return parsed && { number: parsed.number, country: parsed.country };
}

export function isUsNumber(e164: string): boolean {
  return parseInternational(e164)?.country === 'US';
}

/** A US long code (geographic or mobile, not toll-free or any other special range): US 10DLC, subject to A2P registration. */
export function isUsTenDlc(e164: string): boolean {
  const parsed = parseInternational(e164);
  const type = parsed?.getType();
  return parsed?.country === 'US' && type !== undefined && longCodeTypes.has(type);
}

/** Whether the country is part of the North American Numbering Plan, where area codes select numbers. */
export function isNanpCountry(country: string): boolean {
  return exampleOf(country)?.countryCallingCode === '1';
}

/** The national significant number (no country calling code, no trunk prefix), or undefined for an invalid number. */
export function nationalNumberOf(e164: string): string | undefined {
  return parseInternational(e164)?.nationalNumber;
}

/** The area code of a NANP number (the first three digits of its national number), or undefined for other numbers. */
export function nanpAreaCode(e164: string): string | undefined {
  const parsed = parseInternational(e164);
  return parsed?.countryCallingCode === '1' ? parsed.nationalNumber.slice(0, 3) : undefined;
}

function exampleOf(country: string): PhoneNumber | undefined {
  try {
    return getExampleNumber(country.toUpperCase() as CountryCode, mobileExamples);
  } catch {
    // An unknown country code: libphonenumber throws rather than returning nothing.
    return undefined;
  }
}

const variedDigits = 4;
const variations = 10 ** variedDigits;

/**
 * Up to `count` valid long-code numbers of the country, always the same ones in the same order:
 * libphonenumber's example number (its area code replaced by `areaCode` when given), counting up in
 * its last four digits, keeping each candidate the library accepts as a long code of that country.
 * An unknown country, or an area code the country has no long codes in, gives none.
 */
export function exampleNumbers(country: string, areaCode: string | undefined, count: number): string[] {
  const region = country.toUpperCase();
  const example = exampleOf(region);
  if (example === undefined) return [];
  const national = example.nationalNumber;
  if (areaCode !== undefined && !(isDigits(areaCode) && areaCode.length <= national.length - variedDigits)) return [];
  const template = areaCode === undefined ? national : areaCode + national.slice(areaCode.length);
  const head = template.slice(0, -variedDigits);
  const first = Number(template.slice(-variedDigits));

  const numbers: string[] = [];
  for (let step = 0; step < variations && numbers.length < count; step++) {
    const tail = String((first + step) % variations).padStart(variedDigits, '0');
    // Not kept: a search's hundreds of candidates would push the numbers in use out.
    const candidate = parseOnce(`+${example.countryCallingCode}${head}${tail}`);
    const type = candidate?.getType();
    if (candidate?.country === region && type !== undefined && longCodeTypes.has(type)) numbers.push(candidate.number);
  }
  return numbers;
}

function isDigits(text: string): boolean {
  return text.length > 0 && [...text].every((character) => character >= '0' && character <= '9');
}
