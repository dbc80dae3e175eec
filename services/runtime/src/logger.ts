// Structured JSON logs, one object per line, carrying the request id across every hop. pino writes
// them; the shape stays ours: `level` by name, `time` (ISO 8601), `service`, `msg`, then the fields.
// Errors are logged with their `cause` chain, credential fields are redacted (log-redaction.ts) and
// so are credentials inside any string (credential-text.ts).
import pino from 'pino';
import { isError, redactCredentials, redactedText } from './credential-text.js';
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
  const out: LogFields = { name: error.name, message: redactCredentials(String(error.message)) };
  // A system error's code (ECONNREFUSED, Z_DATA_ERROR, …) says most of what happened.
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  out.stack = error.stack === undefined ? undefined : redactCredentials(error.stack);
  if (error.cause !== undefined && depth < maxCauseDepth) {
    out.cause = isError(error.cause) ? serialiseError(error.cause, depth + 1) : redactedText(error.cause);
  }
  return out;
}

function serialise(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = isError(value) ? serialiseError(value, 0) : redactedText(value);
  return out;
}

function wrap(log: pino.Logger): Logger {
  const emit = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) => {
    if (!log.isLevelEnabled(level)) return;
    // The message goes in the object, first, so it comes before the fields on the line (pino would
    // append it last); a field named msg cannot replace it.
    const text = redactCredentials(message);
    log[level](Object.assign({ msg: text }, fields === undefined ? {} : serialise(fields), { msg: text }));
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
