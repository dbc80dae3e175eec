// The canonical scope registry and the one rule that decides whether granted scopes cover a need.
import { canonicalScopes, coversAll, hasScope, isCanonicalScope, nonCanonical } from '../src/access/scopes.js';

const areas = [
  'assistants',
  'calls',
  'campaigns',
  'automations',
  'dashboards',
  'leads',
  'segments',
  'loop',
  'phone_numbers',
  'sip_trunks',
  'knowledge',
  'billing',
  'settings',
  'platform',
];

describe('canonicalScopes', () => {
  test('each area has read and write, plus voices:read: 29 scopes, no duplicates', () => {
    expect(canonicalScopes).toHaveLength(29);
    expect(new Set(canonicalScopes).size).toBe(29);
    const expected = [...areas.flatMap((area) => [`${area}:read`, `${area}:write`]), 'voices:read'];
    expect([...canonicalScopes]).toEqual(expected);
  });

  test('voices has no write scope', () => {
    expect(canonicalScopes).toContain('voices:read');
    expect(canonicalScopes).not.toContain('voices:write');
    expect(isCanonicalScope('voices:write')).toBe(false);
  });

  test('the registry cannot be changed at run time', () => {
    expect(Object.isFrozen(canonicalScopes)).toBe(true);
    expect(() => (canonicalScopes as string[]).push('extra:read')).toThrow();
  });

  test('isCanonicalScope is exact', () => {
    expect(isCanonicalScope('calls:read')).toBe(true);
    expect(isCanonicalScope('phone_numbers:write')).toBe(true);
    expect(isCanonicalScope('Calls:read')).toBe(false);
    expect(isCanonicalScope('calls:*')).toBe(false);
    expect(isCanonicalScope('calls')).toBe(false);
    expect(isCanonicalScope('')).toBe(false);
  });
});

describe('hasScope', () => {
  test('null means unrestricted: every scope is held', () => {
    expect(hasScope(null, 'calls:write')).toBe(true);
    expect(hasScope(null, 'platform:write')).toBe(true);
  });

  test('an empty grant holds nothing', () => {
    expect(hasScope([], 'calls:read')).toBe(false);
  });

  test('an exact grant is held', () => {
    expect(hasScope(['calls:read'], 'calls:read')).toBe(true);
    expect(hasScope(['calls:write'], 'calls:write')).toBe(true);
  });

  test('write implies read of the same area', () => {
    expect(hasScope(['calls:write'], 'calls:read')).toBe(true);
    expect(hasScope(['phone_numbers:write'], 'phone_numbers:read')).toBe(true);
  });

  test('read does not imply write', () => {
    expect(hasScope(['calls:read'], 'calls:write')).toBe(false);
  });

  test('a grant in one area says nothing about another', () => {
    expect(hasScope(['calls:write'], 'campaigns:read')).toBe(false);
    expect(hasScope(['calls:write'], 'campaigns:write')).toBe(false);
    expect(hasScope(['sip_trunks:write'], 'trunks:read')).toBe(false);
  });
});

describe('coversAll', () => {
  test('every needed scope must be held', () => {
    expect(coversAll(['calls:write', 'leads:read'], ['calls:read', 'leads:read'])).toBe(true);
    expect(coversAll(['calls:write'], ['calls:read', 'leads:read'])).toBe(false);
    expect(coversAll(null, ['calls:write', 'leads:write'])).toBe(true);
    expect(coversAll([], [])).toBe(true);
  });
});

describe('nonCanonical', () => {
  test('returns exactly the unknown scopes, in order', () => {
    expect(nonCanonical(['calls:read', 'calls:*', 'voices:read', 'voices:write', 'admin'])).toEqual(['calls:*', 'voices:write', 'admin']);
  });

  test('is empty for canonical scopes', () => {
    expect(nonCanonical(canonicalScopes)).toEqual([]);
    expect(nonCanonical([])).toEqual([]);
  });
});
