// Where secrets sit inside a tool's config, and the three things done to them: sealed at rest,
// masked on every way out, opened only to run the tool. The mask sent back keeps a stored secret.
// Shared by the tools service (a tool's config) and the assistants service (an assistant's builtin tools).
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { SecretBox } from '@voice/runtime/crypto';
import type { FieldIssue } from '@voice/runtime/errors';
import { pathPlaceholder, secretMask, type ToolType } from './tools.js';

type Path = string[];

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every value of a map-valued key is a secret (header values). */
const mapValues = (config: JsonObject, key: string): Path[] => {
  const map = config[key];
  return isObject(map) ? Object.keys(map).map((name) => [key, name]) : [];
};

const secretPathsByType: Record<ToolType, (config: JsonObject) => Path[]> = {
  api: (config) => mapValues(config, 'headers'),
  mcp: (config) => ('auth_value_encrypted' in config ? [['auth_value_encrypted']] : []),
  builtin: (config) => mapValues(config, 'sip_headers'),
};

export const secretPaths = (type: ToolType, config: JsonObject): Path[] => secretPathsByType[type](config);

/**
 * Where a tool's secrets are sent: the origin of an api or mcp tool's url, the destination of a
 * transfer. A stored secret may only be kept (by sending the mask) while this stays the same;
 * otherwise changing the url and sending the mask would deliver the secret to anyone.
 */
function destinationOf(type: ToolType, config: JsonObject): string {
  if (type === 'builtin') return typeof config.destination === 'string' ? config.destination : '';
  try {
    return typeof config.url === 'string' ? new URL(config.url.replace(pathPlaceholder, 'x')).origin : '';
  } catch {
    return '';
  }
}

function read(config: JsonObject, path: Path): JsonValue | undefined {
  let node: JsonValue | undefined = config;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** A copy of config with the value at each path replaced by what `change` returns. */
/**
 * A copy of config with the value at each secret path replaced by what `change` returns. Only the
 * objects on those paths are copied (this runs on every read); the rest is shared with `config`.
 */
function mapSecrets(type: ToolType, config: JsonObject, change: (value: string, path: Path) => string): JsonObject {
  const copy: JsonObject = { ...config };
  const copied = new Set<JsonObject>([copy]);
  for (const path of secretPaths(type, config)) {
    let parent = copy;
    for (const key of path.slice(0, -1)) {
      let child = parent[key] as JsonObject;
      if (!copied.has(child)) {
        child = { ...child };
        copied.add(child);
        parent[key] = child;
      }
      parent = child;
    }
    const key = path[path.length - 1]!;
    parent[key] = change(parent[key] as string, path);
  }
  return copy;
}

export class ToolSecrets {
  constructor(private readonly box: SecretBox) {}

  /**
   * Seals every secret of a validated config. A mask keeps the secret stored at the same place
   * in `stored`, as long as the secret's destination is unchanged; a mask where nothing is
   * stored, or sent with a new destination, is reported as a field issue.
   */
  seal(type: ToolType, config: JsonObject, stored: JsonObject | undefined): { config: JsonObject; issues: FieldIssue[] } {
    const issues: FieldIssue[] = [];
    const sameDestination = stored !== undefined && destinationOf(type, config) === destinationOf(type, stored);
    const sealed = mapSecrets(type, config, (value, path) => {
      if (value !== secretMask) return this.box.seal(value);
      const field = ['config', ...path].join('.');
      const previous = stored ? read(stored, path) : undefined;
      if (!SecretBox.isSealed(previous)) {
        issues.push({ field, issue: 'is the mask, but no secret is stored there' });
      } else if (!sameDestination) {
        issues.push({ field, issue: 'is the mask, but the destination changed; send the secret again' });
      } else {
        return previous;
      }
      return value;
    });
    return { config: sealed, issues };
  }

  /** The config as every response shows it. */
  mask(type: ToolType, stored: JsonObject): JsonObject {
    return mapSecrets(type, stored, () => secretMask);
  }

  /** The config with plaintext secrets, only for running the tool inside this service. */
  open(type: ToolType, stored: JsonObject): JsonObject {
    return mapSecrets(type, stored, (value) => (SecretBox.isSealed(value) ? this.box.open(value) : value));
  }
}
