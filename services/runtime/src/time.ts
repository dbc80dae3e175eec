// Times travel as protobuf Timestamps internally and RFC 3339 UTC strings with milliseconds publicly.
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

export const toTimestamp = (iso: string): Timestamp => timestampFromDate(new Date(iso));

export const toIso = (timestamp: Timestamp | undefined): string | null =>
  timestamp ? timestampDate(timestamp).toISOString() : null;

export const nowIso = (): string => new Date().toISOString();

/**
 * A clock whose every reading is at least 1 ms after the previous one, so records created in
 * one burst still sort newest first by their creation time.
 */
export function monotonicClock(now: () => number = Date.now): () => Date {
  let last = 0;
  return () => {
    last = Math.max(now(), last + 1);
    return new Date(last);
  };
}
