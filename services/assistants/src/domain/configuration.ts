// Pure rules of an assistant's configuration: the whole validated by the contract's schema, and
// which fields differ between two versions.
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { assistantConfigSchema, type AssistantConfig } from '@voice/contracts/assistants';
import type { FieldIssue } from '@voice/runtime/errors';
import { validate } from '@voice/runtime/validation';

/** Validates a whole configuration (nested defaults applied), or names every bad field. */
export function checkedConfig(config: JsonObject): { ok: true; config: AssistantConfig } | { ok: false; issues: FieldIssue[] } {
  const result = validate(assistantConfigSchema, config);
  return result.ok ? { ok: true, config: result.value } : { ok: false, issues: result.issues };
}

const isObject = (value: JsonValue | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sections compared key by key (`model.temperature`); every other field is compared whole. */
const sections = new Set(['model', 'voice', 'transcriber', 'end_call', 'voicemail', 'analysis_plan']);

const same = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The paths of the fields that differ from `before` to `after` (every field of `after` when there
 * is no before), in the order of `after`'s fields. Sealed secrets differ whenever they were sent
 * again, which is a change the history should show.
 */
export function changedFields(before: JsonObject | undefined, after: JsonObject): string[] {
  const changed: string[] = [];
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before ?? {})])];
  for (const key of keys) {
    const [a, b] = [before?.[key], after[key]];
    if (sections.has(key) && isObject(a) && isObject(b)) {
      const inner = [...new Set([...Object.keys(b), ...Object.keys(a)])];
      changed.push(...inner.filter((name) => !same(a[name], b[name])).map((name) => `${key}.${name}`));
    } else if (!same(a, b)) {
      changed.push(key);
    }
  }
  return changed;
}
