// The one parser of limit/offset for every list endpoint (SPEC.md 4.4, API.md 1).

export const defaultPageLimit = 50;
export const maxPageLimit = 200;

export interface Page {
  limit: number;
  offset: number;
}

export type PageParseResult = { ok: true; page: Page } | { ok: false; field: 'limit' | 'offset'; issue: string };

const integerPattern = /^(0|[1-9]\d*)$/;

function parseInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && integerPattern.test(value) && value.length <= 15) return Number(value);
  return undefined;
}

export function parsePage(query: { limit?: unknown; offset?: unknown }): PageParseResult {
  let limit = defaultPageLimit;
  let offset = 0;
  if (query.limit !== undefined) {
    const parsed = parseInteger(query.limit);
    if (parsed === undefined || parsed < 1 || parsed > maxPageLimit) {
      return { ok: false, field: 'limit', issue: `must be an integer from 1 to ${maxPageLimit}` };
    }
    limit = parsed;
  }
  if (query.offset !== undefined) {
    const parsed = parseInteger(query.offset);
    if (parsed === undefined) return { ok: false, field: 'offset', issue: 'must be an integer of at least 0' };
    offset = parsed;
  }
  return { ok: true, page: { limit, offset } };
}

/** For internal callers: a page that arrived over RPC, with zero meaning "default". */
export function normalisePage(page: { limit?: number; offset?: number } | undefined): Page {
  const limit = page?.limit ? Math.min(Math.max(page.limit, 1), maxPageLimit) : defaultPageLimit;
  const offset = page?.offset && page.offset > 0 ? page.offset : 0;
  return { limit, offset };
}
