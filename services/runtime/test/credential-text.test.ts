// The logger writes no credential inside any text: each redaction rule, and the logger applying them to messages,
// fields, nested values and errors.
import { createLogger } from '../src/logger.js';
import { redactCredentials } from '../src/credential-text.js';

test.each([
  ['an API key', 'key svc_0123456789abcdefABCDEF0123456789abcdefABC used', 'key svc_[redacted] used'],
  ['an OAuth access token', 'svc_at_0123456789abcdefABCDEF', 'svc_[redacted]'],
  ['a bearer header', 'Authorization: Bearer abcdefgh.ijkl-mnop', 'Authorization: Bearer [redacted]'],
  ['basic credentials', 'basic dXNlcjpwYXNzd29yZA==', 'basic [redacted]'],
  ['a URL with user and password', 'smtp://mailer:hunter2@mail.example:587', 'smtp://[redacted]@mail.example:587'],
  ['a query string', 'GET https://api.example/x?api_key=abc&b=c failed', 'GET https://api.example/x?[redacted] failed'],
  ['a path query string', '/oauth/authorize?code=abc&state=xyz', '/oauth/authorize?[redacted]'],
  ['an invitation path', '/invitations/AbCdEfGhIjKlMnOpQrStUv/more', '/invitations/[redacted]/more'],
])('%s', (_case, text, expected) => {
  expect(redactCredentials(text)).toBe(expected);
});

test.each([
  ['a route template', '/invitations/:token'],
  ['a key hint', 'svc_…abcd'],
  ['a question', 'is it ready? yes'],
  ['a plain URL', 'https://api.example/orders/42'],
])('%s is left alone', (_case, text) => {
  expect(redactCredentials(text)).toBe(text);
});

test('the logger redacts the message, fields, nested values and errors', () => {
  const lines: string[] = [];
  const logger = createLogger({ service: 'test', level: 'info', write: (line) => lines.push(line) });
  const key = 'svc_0123456789abcdefABCDEF0123456789abcdefABC';
  logger.error(`failed with ${key}`, {
    url: `https://x.example/a?token=${key}`,
    nested: { list: [`Bearer ${key}`] },
    error: new Error(`connect to mongodb://admin:hunter2@db failed for ${key}`),
    count: 3,
  });
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain(key);
  expect(lines[0]).not.toContain('hunter2');
  expect(JSON.parse(lines[0]!)).toMatchObject({ count: 3, nested: { list: ['Bearer svc_[redacted]'] }, error: { name: 'Error', stack: expect.any(String) } });
});
