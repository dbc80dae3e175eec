// JSON nesting limits: input deeper than this is refused with a 400 before anything recurses
// over it, and results deeper than protobuf can carry are reported instead of failing.
import { z } from 'zod';
import type { JsonValue } from '@bufbuild/protobuf';

/** Deepest nesting accepted in request bodies (configs, arguments). */
export const maxInputJsonDepth = 32;
/** Deepest nesting a Struct/Value can carry between services (protobuf's recursion limit is 100). */
export const maxCarriedJsonDepth = 64;

/** True for a JSON value (finite numbers, plain objects) nested at most `depth` levels. */
export function isJsonWithin(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth <= 0 || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isJsonWithin(item, depth - 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every((item) => isJsonWithin(item, depth - 1));
}

/** Any JSON value, nested at most maxInputJsonDepth levels (z.json() recurses without a bound). */
export const boundedJson = (): z.ZodType<JsonValue> =>
  z.custom<JsonValue>((value) => isJsonWithin(value, maxInputJsonDepth), `must be JSON nested at most ${maxInputJsonDepth} levels deep`);
