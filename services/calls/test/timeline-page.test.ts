// The merged timeline's pages: entries of every source newest first (ties by id, descending), cut at
// the page, deep pages read through several source pages, and the sources' totals summed.
import type { Page } from '@voice/runtime/validation';
import { timelinePage, type TimelineEntry, type TimelineSource } from '../src/history/timeline-page.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, second)).toISOString();

/** A source over fixed entries that records the pages asked of it. */
function sourceOf(entries: TimelineEntry[], asked: Page[] = []): TimelineSource<TimelineEntry> {
  const sorted = [...entries].sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt)));
  return async (page) => {
    asked.push(page);
    return { entries: sorted.slice(page.offset, page.offset + page.limit), total: sorted.length };
  };
}

test('entries of every source come newest first, ties by id descending, cut at the page', async () => {
  const calls = sourceOf([{ id: 'c1', createdAt: at(1) }, { id: 'c4', createdAt: at(4) }]);
  const sms = sourceOf([{ id: 's2', createdAt: at(2) }, { id: 's5', createdAt: at(4) }]);
  const emails = sourceOf([{ id: 'e3', createdAt: at(3) }]);
  const all = await timelinePage([calls, sms, emails], { limit: 10, offset: 0 });
  expect(all.entries.map((entry) => entry.id)).toEqual(['s5', 'c4', 'e3', 's2', 'c1']);
  expect(all.total).toBe(5);
  const second = await timelinePage([calls, sms, emails], { limit: 2, offset: 2 });
  expect(second).toEqual({ entries: [{ id: 'e3', createdAt: at(3) }, { id: 's2', createdAt: at(2) }], total: 5 });
  expect(await timelinePage([calls, sms], { limit: 2, offset: 10 })).toEqual({ entries: [], total: 4 });
  expect(await timelinePage([], { limit: 2, offset: 0 })).toEqual({ entries: [], total: 0 });
});

test('a deep page reads each source a bounded page at a time, and no further than it needs', async () => {
  const many = Array.from({ length: 450 }, (_, index) => ({ id: `a${String(index).padStart(3, '0')}`, createdAt: at(index % 60) }));
  const asked: Page[] = [];
  const page = await timelinePage([sourceOf(many, asked), sourceOf([{ id: 'only', createdAt: at(0) }])], { limit: 50, offset: 400 });
  expect(page.total).toBe(451);
  expect(page.entries).toHaveLength(50);
  expect(asked).toEqual([
    { limit: 200, offset: 0 },
    { limit: 200, offset: 200 },
    { limit: 50, offset: 400 },
  ]);
  // The cut is the one a single sorted list would give.
  const expected = [...many, { id: 'only', createdAt: at(0) }].sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt)));
  expect(page.entries).toEqual(expected.slice(400, 450));
});
