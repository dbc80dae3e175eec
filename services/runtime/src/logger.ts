// Structured JSON logs, one object per line, carrying the request id across every hop.
import { redactedValue, redactCredentials } from './log-redaction.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ranks: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
export const logLevels = Object.keys(ranks) as LogLevel[];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** Fields as written: errors as name, message and stack, every string without credentials. */
function serialise(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = redactedValue(value);
  return out;
}

export function createLogger(options: {
  service: string;
  level: LogLevel;
  write?: (line: string) => void;
  fields?: LogFields;
}): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const threshold = ranks[options.level];
  const base = { service: options.service, ...options.fields };
  const emit = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (ranks[level] < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg: redactCredentials(message), ...base, ...serialise(fields ?? {}) }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, fields: { ...options.fields, ...fields } }),
  };
}
