// VOICE_CORS_ORIGINS: origins as browsers send them, `*` alone, and a refusal naming the variable.
import { readAllowedOrigins, isAllowedOrigin } from '../src/cors/allowed-origins.js';

test('origins are kept in the form browsers send: scheme, host, and a port other than the default', () => {
  const allowed = readAllowedOrigins({ VOICE_CORS_ORIGINS: 'https://App.Example.com:443, http://localhost:5173' });
  expect(allowed).toEqual(new Set(['https://app.example.com', 'http://localhost:5173']));
  expect(isAllowedOrigin(allowed, 'https://app.example.com')).toBe(true);
  expect(isAllowedOrigin(allowed, 'https://evil.example.com')).toBe(false);
  expect(isAllowedOrigin(allowed, 'http://localhost:5174')).toBe(false);
});

test('unset or empty allows no origin; * alone allows every one', () => {
  expect(readAllowedOrigins({})).toEqual(new Set());
  expect(readAllowedOrigins({ VOICE_CORS_ORIGINS: ' ' })).toEqual(new Set());
  const any = readAllowedOrigins({ VOICE_CORS_ORIGINS: '*' });
  expect(any).toBe('any');
  expect(isAllowedOrigin(any, 'https://anything.example')).toBe(true);
});

test.each([
  ['https://app.example.com/path', 'is not an origin'],
  ['https://app.example.com/', 'is not an origin'],
  ['ftp://files.example.com', 'is not an origin'],
  ['https://user:pw@app.example.com', 'is not an origin'],
  ['app.example.com', 'is not an origin such as https://app.example.com'],
  ['*,https://app.example.com', 'is either * or a list of origins'],
])('%s is refused at start, naming the variable', (value, said) => {
  expect(() => readAllowedOrigins({ VOICE_CORS_ORIGINS: value })).toThrow(expect.objectContaining({ message: expect.stringMatching(new RegExp(`VOICE_CORS_ORIGINS.*${said.replace(/[*]/g, '\\*')}`)) }));
});
