// One page of a timeline merged from several sources, each listed newest first with offset pages:
// the page's entries are among the first offset + limit of each source, so those are read (a source
// page at most maxPageLimit long at a time), merged newest first (then by id, descending, as every
// source orders its ties) and cut. The total is the sum of the sources' totals.
import { maxPageLimit, type Page } from '@voice/runtime/validation';

export interface TimelineEntry {
  id: string;
  /** RFC 3339 UTC with milliseconds: compared as text. */
  createdAt: string;
}

/** One page of a source, newest first, and how many it holds in all. */
export type TimelineSource<T extends TimelineEntry> = (page: Page) => Promise<{ entries: T[]; total: number }>;


const newestFirst = (a: TimelineEntry, b: TimelineEntry): number =>
  a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id === b.id ? 0 : a.id < b.id ? 1 : -1;

/** The first `count` entries of a source and its total. */
async function headOf<T extends TimelineEntry>(source: TimelineSource<T>, count: number): Promise<{ entries: T[]; total: number }> {
  const entries: T[] = [];
  for (;;) {
    const limit = Math.min(maxPageLimit, Math.max(count - entries.length, 1));
    const page = await source({ limit, offset: entries.length });
    entries.push(...page.entries);
    if (page.entries.length < limit || entries.length >= count) return { entries: entries.slice(0, count), total: page.total };
  }
}

export async function timelinePage<T extends TimelineEntry>(sources: TimelineSource<T>[], page: Page): Promise<{ entries: T[]; total: number }> {
  const heads = await Promise.all(sources.map((source) => headOf(source, page.offset + page.limit)));
  const merged = heads.flatMap((head) => head.entries).sort(newestFirst);
  return { entries: merged.slice(page.offset, page.offset + page.limit), total: heads.reduce((sum, head) => sum + head.total, 0) };
}
