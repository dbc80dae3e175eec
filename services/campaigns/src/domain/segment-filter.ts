// A segment filter in the form the stores compare: times as RFC 3339 with milliseconds, the stored
// form of every lead's created_at, so a string comparison is a time comparison.
import type { SegmentFilter } from '@voice/contracts/campaigns';

export const storedFilter = (filter: SegmentFilter): SegmentFilter => ({
  ...filter,
  ...(filter.created_after ? { created_after: new Date(filter.created_after).toISOString() } : {}),
  ...(filter.created_before ? { created_before: new Date(filter.created_before).toISOString() } : {}),
});
