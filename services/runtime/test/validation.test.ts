// validate's field issues: a missing field is "is required", a field of the wrong type says the
// type it must have (zod 4's issues do not carry the input, so presence is read from the value).
import { z } from 'zod';
import { validate } from '@voice/runtime/validation';

const schema = z.strictObject({
  name: z.string(),
  tags: z.array(z.string()).optional(),
  limit: z.number().int().optional(),
  settings: z.strictObject({ enabled: z.boolean() }).optional(),
});

const issuesOf = (value: unknown, prefix: (string | number)[] = []) => {
  const result = validate(schema, value, prefix);
  if (result.ok) throw new Error('expected the value to be refused');
  return result.issues;
};

test('a missing field is required', () => {
  expect(issuesOf({})).toEqual([{ field: 'name', issue: 'is required' }]);
  expect(issuesOf({ name: 'a', settings: {} })).toEqual([{ field: 'settings.enabled', issue: 'is required' }]);
});

test('a field of the wrong type names the type it must have, null included', () => {
  expect(issuesOf({ name: 5 })).toEqual([{ field: 'name', issue: 'must be a string' }]);
  expect(issuesOf({ name: null })).toEqual([{ field: 'name', issue: 'must be a string' }]);
  expect(issuesOf({ name: 'a', tags: 'x' })).toEqual([{ field: 'tags', issue: 'must be an array' }]);
  // Not also "too long" for a string where a list of at most 3 items belongs: its type is the one problem.
  expect(validate(z.object({ tags: z.array(z.string()).max(3) }), { tags: 'a long string' })).toEqual({ ok: false, issues: [{ field: 'tags', issue: 'must be an array' }] });
  expect(issuesOf({ name: 'a', tags: ['x', 7] })).toEqual([{ field: 'tags.1', issue: 'must be a string' }]);
  expect(issuesOf({ name: 'a', limit: 1.5 })).toEqual([{ field: 'limit', issue: 'must be an integer' }]);
  expect(issuesOf({ name: 'a', settings: { enabled: 'yes' } })).toEqual([{ field: 'settings.enabled', issue: 'must be a boolean' }]);
});

test('a body that is not an object is named as the body', () => {
  expect(issuesOf([])).toEqual([{ field: 'body', issue: 'must be an object' }]);
  expect(issuesOf('text')).toEqual([{ field: 'body', issue: 'must be an object' }]);
});

test('a prefix names the fields where the value sits in the request', () => {
  const issues = issuesOf({ name: 5, extra: 1 }, ['config']);
  expect(issues).toHaveLength(2);
  expect(issues).toEqual(
    expect.arrayContaining([
      { field: 'config.name', issue: 'must be a string' },
      { field: 'config.extra', issue: 'is not a known field' },
    ]),
  );
});
