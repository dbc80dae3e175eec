// Structured JSON logs, one object per line, carrying the request id across every hop. pino writes
// them; the shape stays ours: `level` by name, `time` (ISO 8601), `service`, `msg`, then the fields.
// Errors are logged with their `cause` chain, and credential fields are redacted (log-redaction.ts).
import pino from 'pino';
import { credentialPaths, redactedValue } from './log-redaction.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export const logLevels: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** Causes deeper than this are cut (a cycle of causes would otherwise never end). */
const maxCauseDepth = 5;

function serialiseError(error: Error, depth: number): LogFields {
  const out: LogFields = { name: error.name, message: error.message, stack: error.stack };
  if (error.cause !== undefined && depth < maxCauseDepth) {
    out.cause = error.cause instanceof Error ? serialiseError(error.cause, depth + 1) : error.cause;
  }
  return out;
}

function serialise(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value instanceof Error ? serialiseError(value, 0) : value;
  return out;
}

function wrap(log: pino.Logger): Logger {
  const emit = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) => {
    if (!log.isLevelEnabled(level)) return;
    // The message goes in the object, first, so it comes before the fields on the line (pino would
    // append it last); a field named msg cannot replace it.
    log[level](Object.assign({ msg: message }, fields === undefined ? {} : serialise(fields), { msg: message }));
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => wrap(log.child(serialise(fields))),
  };
}

export function createLogger(options: {
  service: string;
  level: LogLevel;
  write?: (line: string) => void;
  fields?: LogFields;
}): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const log = pino(
    {
      level: options.level,
      base: { service: options.service, ...serialise(options.fields ?? {}) },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: credentialPaths(), censor: redactedValue },
    },
    { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) },
  );
  return wrap(log);
}
