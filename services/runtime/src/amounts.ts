// Exact amounts: credits and minutes are stored and carried as integer sub-units and shown as
// decimal strings with a fixed number of places. No binary floating point touches an amount.

/** Sub-units per credit (four decimal places). */
export const creditScale = 10_000;
/** Sub-units per minute (three decimal places). */
export const minuteScale = 1_000;

const placesOf = (scale: number): number => Math.round(Math.log10(scale));

/**
 * The integer number of sub-units a decimal string stands for, or undefined when the text is
 * not a plain decimal, has more places than the scale, or leaves the safe integer range.
 */
export function parseUnits(text: string, scale: number): number | undefined {
  const match = /^(-?)(\d{1,15})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const places = placesOf(scale);
  if (fraction.length > places) return undefined;
  const units = Number(whole) * scale + Number(fraction.padEnd(places, '0') || '0');
  if (!Number.isSafeInteger(units)) return undefined;
  return sign === '-' && units !== 0 ? -units : units;
}

/** "12.5000" for 125000 credit sub-units: every place shown, a minus sign for negatives. */
export function formatUnits(units: number, scale: number): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not an integer amount: ${units}`);
  const places = placesOf(scale);
  const magnitude = Math.abs(units);
  const whole = Math.floor(magnitude / scale);
  const fraction = String(magnitude % scale).padStart(places, '0');
  return `${units < 0 ? '-' : ''}${whole}.${fraction}`;
}

export const formatCredits = (units: number): string => formatUnits(units, creditScale);
export const formatMinutes = (units: number): string => formatUnits(units, minuteScale);
export const parseCredits = (text: string): number | undefined => parseUnits(text, creditScale);
export const parseMinutes = (text: string): number | undefined => parseUnits(text, minuteScale);
