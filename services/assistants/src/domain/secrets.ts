// The secrets inside an assistant's configuration: each builtin tool item keeps its secrets as a
// builtin tool's config does (the same ToolSecrets rules), sealed at rest and masked on the way
// out; the mask sent back keeps the secret of the stored item with the same type and destination.
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { FieldIssue } from '@voice/runtime/errors';
import type { ToolSecrets } from '@voice/contracts/tool-secrets';

const items = (config: JsonObject): JsonObject[] => (Array.isArray(config.builtin_tools) ? (config.builtin_tools as JsonObject[]) : []);

const sameItem = (a: JsonObject, b: JsonObject): boolean => a.type === b.type && a.destination === b.destination;

export class AssistantSecrets {
  constructor(private readonly tools: ToolSecrets) {}

  /** Seals the secrets of a validated configuration; a mask keeps what the matching stored item holds. */
  seal(config: JsonObject, stored: JsonObject | undefined): { config: JsonObject; issues: FieldIssue[] } {
    const issues: FieldIssue[] = [];
    const storedItems = stored ? items(stored) : [];
    const sealed = items(config).map((item, index) => {
      // The item at the same place first, then any stored item of the same type and destination.
      const counterpart = [storedItems[index], ...storedItems].find((candidate) => candidate !== undefined && sameItem(candidate, item));
      const result = this.tools.seal('builtin', item, counterpart);
      issues.push(...result.issues.map((issue) => ({ ...issue, field: issue.field.replace(/^config\./, `builtin_tools.${index}.`) })));
      return result.config;
    });
    return { config: { ...config, builtin_tools: sealed as JsonValue[] }, issues };
  }

  /** The configuration as every response shows it. */
  mask(config: JsonObject): JsonObject {
    if (!Array.isArray(config.builtin_tools)) return config;
    return { ...config, builtin_tools: items(config).map((item) => this.tools.mask('builtin', item)) };
  }
}
