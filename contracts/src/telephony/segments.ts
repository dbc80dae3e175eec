// How many SMS segments a text takes (GSM 03.38 / 3GPP TS 23.038): GSM-7 when every character is in
// the default alphabet or its extension table, UCS-2 otherwise.

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegmentation {
  encoding: SmsEncoding;
  segments: number;
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
}

/** The most segments one message may take; an empty body (0 segments) is the caller's to refuse. */
export const maxSegments = 10;

/** Units per segment: a single message, and each part of a concatenated one (its header takes the rest). */
const capacity: Record<SmsEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

/** The GSM 03.38 default alphabet; ESC (0x1B) is left out because it only introduces the extension table. */
const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** The extension table: each is sent as ESC plus one septet. */
const gsmExtension = new Set('\f^{}\\[]~|€');

/** The units each character of the body takes, in order; iterating by code point keeps surrogate pairs whole. */
function characterUnits(body: string): { encoding: SmsEncoding; units: number[] } {
  const characters = [...body];
  if (characters.every((character) => gsmBasic.has(character) || gsmExtension.has(character))) {
    return { encoding: 'GSM-7', units: characters.map((character) => (gsmExtension.has(character) ? 2 : 1)) };
  }
  return { encoding: 'UCS-2', units: characters.map((character) => character.length) };
}

/** Parts of a concatenated message, filled in order; a character that does not fit whole starts the next part. */
function countParts(units: number[], partSize: number): number {
  let parts = 1;
  let used = 0;
  for (const size of units) {
    if (used + size > partSize) {
      parts++;
      used = 0;
    }
    used += size;
  }
  return parts;
}

export function segmentSms(body: string): SmsSegmentation {
  const { encoding, units } = characterUnits(body);
  const total = units.reduce((sum, size) => sum + size, 0);
  const { single, part } = capacity[encoding];
  const segments = total === 0 ? 0 : total <= single ? 1 : countParts(units, part);
  return { encoding, segments, units: total };
}

/** Why the segmentation is more than one message may take, as a validation issue; undefined when it fits. */
export function tooLongIssue(segmentation: SmsSegmentation): string | undefined {
  if (segmentation.segments <= maxSegments) return undefined;
  const unitName = segmentation.encoding === 'GSM-7' ? 'septets' : 'UTF-16 code units';
  return (
    `is too long: it takes ${segmentation.segments} ${segmentation.encoding} segments (${segmentation.units} ${unitName}); ` +
    `at most ${maxSegments} segments are allowed (${maxSegments * capacity['GSM-7'].part} GSM-7 septets, or ` +
    `${maxSegments * capacity['UCS-2'].part} UTF-16 code units when a character outside the GSM-7 alphabet makes it UCS-2)`
  );
}
