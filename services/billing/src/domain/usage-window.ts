// The window of GetUsageSummary: from (inclusive, default the start of the current UTC month)
// to (exclusive, default now).
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { FieldIssue } from '@voice/runtime/errors';

export interface UsageWindow {
  from: Date;
  to: Date;
}

const startOfUtcMonth = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Instants whose RFC 3339 text sorts like the instant itself (what stored times compare by). */
const isComparable = (date: Date): boolean => Number.isFinite(date.getTime()) && date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999;

export function usageWindow(from: Timestamp | undefined, to: Timestamp | undefined, now: Date): { ok: true; window: UsageWindow } | { ok: false; issues: FieldIssue[] } {
  const window = { from: from ? timestampDate(from) : startOfUtcMonth(now), to: to ? timestampDate(to) : now };
  const issues: FieldIssue[] = [];
  if (!isComparable(window.from)) issues.push({ field: 'from', issue: 'must be a time between the years 0001 and 9999' });
  if (!isComparable(window.to)) issues.push({ field: 'to', issue: 'must be a time between the years 0001 and 9999' });
  if (issues.length === 0 && window.from.getTime() >= window.to.getTime()) issues.push({ field: 'from', issue: 'must be before to' });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, window };
}
