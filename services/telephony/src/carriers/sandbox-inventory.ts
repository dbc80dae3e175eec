// The numbers the sandbox carrier sells: the same ones every time, valid per libphonenumber. In NANP
// countries every area code has its own stock; elsewhere there is one stock per country, which an
// area code narrows to the numbers whose national number starts with it.
import { exampleNumbers, isNanpCountry, nanpAreaCode, nationalNumberOf, parseE164 } from '@voice/contracts/telephony';

export const sandboxCountries: readonly string[] = ['US', 'CA', 'GB', 'DE', 'FR', 'AU'];

/** Numbers in stock per country, or per area code in NANP countries. */
const stockSize = 50;

export function sandboxOffers(country: string, areaCode: string | undefined): string[] {
  const region = country.toUpperCase();
  if (!sandboxCountries.includes(region)) return [];
  if (isNanpCountry(region)) return exampleNumbers(region, areaCode, stockSize);
  const stock = exampleNumbers(region, undefined, stockSize);
  return areaCode === undefined ? stock : stock.filter((number) => nationalNumberOf(number)?.startsWith(areaCode));
}

export function isSandboxOffer(number: string): boolean {
  const parsed = parseE164(number);
  if (!parsed) return false;
  return sandboxOffers(parsed.country, nanpAreaCode(parsed.number)).includes(parsed.number);
}
