// Resource ids are UUID v4 strings; anything else in a path is simply "not found".
import { createHash, randomUUID } from 'node:crypto';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();

export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

const derivedIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** An id of a resource whose id may be random (v4) or derived (v8, derivedId): anything else names nothing. */
export const isUuidOrDerivedId = (value: unknown): value is string => isUuid(value) || (typeof value === 'string' && derivedIdPattern.test(value));

/**
 * A UUID derived from `parts` (RFC 9562 version 8: custom, here SHA-256 of the parts joined by NUL):
 * the same parts give the same id, so a retried request names the same thing again.
 */
export function derivedId(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\0')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
