// The log line's shape, error causes and the redaction of credential fields.
import { createLogger, type LogFields } from '../src/logger.js';
import { credentialFields, redactedValue } from '../src/log-redaction.js';

function capture(level: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'debug') {
  const lines: LogFields[] = [];
  const logger = createLogger({ service: 'logger-test', level, write: (line) => void lines.push(JSON.parse(line) as LogFields) });
  return { logger, lines };
}

test('a line is one JSON object with time, level by name, msg, service and the fields', () => {
  const { logger, lines } = capture();
  logger.child({ request_id: 'r-1' }).info('listening', { port: 8080 });
  expect(lines).toEqual([{ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'info', msg: 'listening', service: 'logger-test', request_id: 'r-1', port: 8080 }]);
});

test('levels below the threshold, and every level when silent, write nothing', () => {
  const warn = capture('warn');
  warn.logger.debug('d');
  warn.logger.info('i');
  warn.logger.warn('w');
  warn.logger.error('e');
  expect(warn.lines.map((line) => line.level)).toEqual(['warn', 'error']);
  const silent = capture('silent');
  silent.logger.error('e');
  expect(silent.lines).toEqual([]);
});

test('an error is logged with its cause chain', () => {
  const { logger, lines } = capture();
  const root = new TypeError('socket hang up');
  logger.error('call failed', { error: new Error('billing unreachable', { cause: new Error('connect refused', { cause: root }) }) });
  const error = lines[0]!.error as LogFields;
  expect(error).toMatchObject({ name: 'Error', message: 'billing unreachable', cause: { message: 'connect refused', cause: { name: 'TypeError', message: 'socket hang up' } } });
  expect(String(error.stack)).toContain('billing unreachable');
});

test('a cause that is not an error is logged as it is, and a cycle of causes ends', () => {
  const { logger, lines } = capture();
  const looped = new Error('a');
  looped.cause = looped;
  logger.warn('odd causes', { plain: new Error('p', { cause: { code: 'E_CODE' } }), looped });
  expect(lines[0]!.plain).toMatchObject({ message: 'p', cause: { code: 'E_CODE' } });
  let depth = 0;
  for (let error = lines[0]!.looped as LogFields | undefined; error; error = error.cause as LogFields | undefined) depth += 1;
  expect(depth).toBeLessThan(10);
});

test('every credential field is redacted at the top of the line and nested, the rest is kept', () => {
  const { logger, lines } = capture();
  for (const field of credentialFields) {
    logger.info('request', { [field]: 'credential-value', headers: { [field]: 'credential-value', host: 'api.example' }, body: { user: { [field]: 'credential-value' } } });
  }
  expect(lines).toHaveLength(credentialFields.length);
  for (const [index, field] of credentialFields.entries()) {
    const line = lines[index]!;
    expect(JSON.stringify(line)).not.toContain('credential-value');
    expect(line[field]).toBe(redactedValue);
    expect(line.headers).toEqual({ [field]: redactedValue, host: 'api.example' });
    expect((line.body as { user: LogFields }).user[field]).toBe(redactedValue);
  }
});

test('redaction leaves the logged object as it was', () => {
  const { logger } = capture();
  const headers = { authorization: 'Bearer abc' };
  logger.info('request', { headers });
  expect(headers).toEqual({ authorization: 'Bearer abc' });
});

test('credential fields bound to a child logger are redacted too', () => {
  const { logger, lines } = capture();
  logger.child({ password: 'hunter2' }).info('bound');
  expect(lines[0]!.password).toBe(redactedValue);
});

test('the message comes before the fields, and a field named msg does not replace it', () => {
  const raw: string[] = [];
  createLogger({ service: 'logger-test', level: 'info', write: (line) => void raw.push(line) }).info('listening', { port: 8080, msg: 'other' });
  expect(raw[0]).toMatch(/"msg":"listening","port":8080}$/);
});
