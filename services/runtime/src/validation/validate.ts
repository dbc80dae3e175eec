// Turns schema failures into the field violations of a 400: one {field, issue} per problem,
// fields named by their JSON path in the public request.
import type { z } from 'zod';
import type { FieldIssue } from '../errors.js';

export function fieldIssues(error: z.ZodError, prefix: (string | number)[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path].map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), issue: 'is not a known field' }));
    }
    const field = path.length > 0 ? path.join('.') : 'body';
    if (issue.code === 'invalid_type' && issue.input === undefined) return [{ field, issue: 'is required' }];
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
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: fieldIssues(result.error, prefix) };
}

/** A zod refinement from a rule that answers its issue (or undefined), so schemas reuse the rules services enforce. */
export const checkedBy =
  (issue: (value: string) => string | undefined) =>
  (value: string, context: z.RefinementCtx): void => {
    const problem = issue(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  };
