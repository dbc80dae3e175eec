// The first message a call's assistant speaks: none when it waits for the caller, and `{{name}}`
// replaced by the call's variable of that name, else the assistant's default for it, else nothing.
import type { JsonObject } from '@bufbuild/protobuf';

interface VariableDefault {
  name?: unknown;
  default_value?: unknown;
}

export function firstMessageOf(config: JsonObject, variables: JsonObject): string {
  if (config.first_message_mode === 'assistant_waits_for_user' || typeof config.first_message !== 'string') return '';
  const defaults = new Map(
    (Array.isArray(config.variables) ? (config.variables as VariableDefault[]) : []).flatMap((variable) =>
      typeof variable?.name === 'string' && typeof variable.default_value === 'string' ? [[variable.name, variable.default_value] as const] : [],
    ),
  );
  return config.first_message.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_placeholder, name: string) => {
    const value = variables[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    return defaults.get(name) ?? '';
  });
}
