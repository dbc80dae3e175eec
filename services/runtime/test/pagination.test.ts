// parsePage is the one limit/offset parser of every list endpoint (API.md 1); normalisePage
// is its RPC-side twin.
import { defaultPageLimit, maxPageLimit, normalisePage, parsePage } from '../src/validation/pagination.js';

describe('parsePage', () => {
  test('defaults to 50 and 0', () => {
    expect(defaultPageLimit).toBe(50);
    expect(maxPageLimit).toBe(200);
    expect(parsePage({})).toEqual({ ok: true, page: { limit: 50, offset: 0 } });
  });

  test.each([
    ['1', 1],
    ['50', 50],
    ['200', 200],
  ])('limit "%s" is accepted', (limit, expected) => {
    expect(parsePage({ limit })).toEqual({ ok: true, page: { limit: expected, offset: 0 } });
  });

  test('numbers are accepted as well as strings', () => {
    expect(parsePage({ limit: 10, offset: 20 })).toEqual({ ok: true, page: { limit: 10, offset: 20 } });
  });

  test.each([
    ['0'],
    ['201'],
    ['-1'],
    ['1.5'],
    ['abc'],
    [''],
    [' 5'],
    ['5 '],
    ['1e2'],
    ['0x10'],
    ['+5'],
    ['05'],
    [['10']],
    [['10', '20']],
    [{ limit: '10' }],
    [0],
    [201],
    [1.5],
    [-1],
    [Number.NaN],
    [null],
    [true],
  ])('limit %j is refused', (limit) => {
    expect(parsePage({ limit })).toEqual({ ok: false, field: 'limit', issue: 'must be an integer from 1 to 200' });
  });

  test('offset has no maximum', () => {
    expect(parsePage({ offset: '0' })).toEqual({ ok: true, page: { limit: 50, offset: 0 } });
    expect(parsePage({ offset: '1000000' })).toEqual({ ok: true, page: { limit: 50, offset: 1_000_000 } });
    expect(parsePage({ offset: '999999999999999' })).toEqual({ ok: true, page: { limit: 50, offset: 999_999_999_999_999 } });
  });

  test.each([['-1'], ['1.5'], ['abc'], [''], ['00'], ['007'], [['1']], [-1], [0.5], ['1000000000000000']])(
    'offset %j is refused',
    (offset) => {
      expect(parsePage({ offset })).toEqual({ ok: false, field: 'offset', issue: 'must be an integer of at least 0' });
    },
  );

  test('leading zeros: "0" alone is an integer, "0"-prefixed numbers are not', () => {
    expect(parsePage({ offset: '0' }).ok).toBe(true);
    expect(parsePage({ limit: '010' })).toMatchObject({ ok: false, field: 'limit' });
    expect(parsePage({ offset: '010' })).toMatchObject({ ok: false, field: 'offset' });
  });

  test('the limit is checked before the offset', () => {
    expect(parsePage({ limit: '0', offset: '-1' })).toMatchObject({ ok: false, field: 'limit' });
    expect(parsePage({ limit: '10', offset: '-1' })).toMatchObject({ ok: false, field: 'offset' });
  });
});

describe('normalisePage', () => {
  test('missing page or zero values mean the defaults', () => {
    expect(normalisePage(undefined)).toEqual({ limit: 50, offset: 0 });
    expect(normalisePage({})).toEqual({ limit: 50, offset: 0 });
    expect(normalisePage({ limit: 0, offset: 0 })).toEqual({ limit: 50, offset: 0 });
  });

  test('values inside the range pass through', () => {
    expect(normalisePage({ limit: 1, offset: 7 })).toEqual({ limit: 1, offset: 7 });
    expect(normalisePage({ limit: 200, offset: 1_000_000 })).toEqual({ limit: 200, offset: 1_000_000 });
  });

  test('out-of-range values are clamped', () => {
    expect(normalisePage({ limit: 500 })).toEqual({ limit: 200, offset: 0 });
    expect(normalisePage({ limit: -3 })).toEqual({ limit: 1, offset: 0 });
    expect(normalisePage({ offset: -10 })).toEqual({ limit: 50, offset: 0 });
  });
});
