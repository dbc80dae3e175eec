// Times travel as protobuf Timestamps internally and RFC 3339 UTC strings with milliseconds publicly.
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

export const toTimestamp = (iso: string): Timestamp => timestampFromDate(new Date(iso));

export const toIso = (timestamp: Timestamp | undefined): string | null =>
  timestamp ? timestampDate(timestamp).toISOString() : null;

export const nowIso = (): string => new Date().toISOString();
