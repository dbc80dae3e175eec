// Turns schema failures into the field violations of a 400: one {field, issue} per problem,
// fields named by their JSON path in the public request.
import type { z } from 'zod';
import type { FieldIssue } from '../errors.js';

/** What a value of each JSON type zod expects is called in an issue. */
const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

/** Whether `input` holds a value at `path`: zod's issues do not carry the input, so absence is read here. */
function isPresent(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

/** The field violations of `error`, which parsing `input` raised. */
export function fieldIssues(error: z.ZodError, input: unknown, prefix: (string | number)[] = []): FieldIssue[] {
  // zod still runs length checks on a value of the wrong type (an array's max on a string): only its type is the problem.
  const pathKey = (path: readonly PropertyKey[]) => path.map(String).join('\u0000');
  const mistyped = new Set(error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => pathKey(issue.path)));
  return error.issues.flatMap((issue) => {
    if (issue.code !== 'invalid_type' && mistyped.has(pathKey(issue.path))) return [];
    const path = [...prefix, ...issue.path].map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), issue: 'is not a known field' }));
    }
    const field = path.length > 0 ? path.join('.') : 'body';
    if (issue.code === 'invalid_type') {
      // A value of the wrong type is there: saying it is required would send the caller looking for a missing field.
      if (!isPresent(input, issue.path)) return [{ field, issue: 'is required' }];
      const expected = typeNames[issue.expected];
      if (expected) return [{ field, issue: `must be ${expected}` }];
    }
    return [{ field, issue: issue.message }];
  });
}

/** The fields whose value is not undefined, so "absent" and "present" stay distinct (for validation, or for a partial update where null clears). */
export const definedFields = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** An absolute http or https URL without user name or password (the only kind that leaves the platform). */
export function isHttpUrlWithoutCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Parses with the schema or returns the field issues. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix: (string | number)[] = [],
): { ok: true; value: z.output<S> } | { ok: false; issues: FieldIssue[] } {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: fieldIssues(result.error, value, prefix) };
}

/** A zod refinement from a rule that answers its issue (or undefined), so schemas reuse the rules services enforce. */
export const checkedBy =
  (issue: (value: string) => string | undefined) =>
  (value: string, context: z.RefinementCtx): void => {
    const problem = issue(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  };
