// The redirect URI rules of SPEC.md 5.7 and RFC 8252 loopback matching, on their own.
import { canonicalRedirectUri, redirectUriIssue, redirectUriMatches } from '../src/domain/redirect-uris.js';

test.each([
  'https://a.example/cb',
  'https://a.example:8443/cb?x=1',
  'https://127.0.0.1/cb',
  'HTTPS://A.EXAMPLE/cb',
  'http://127.0.0.1:8080/cb',
  'http://127.0.0.1/cb',
  'http://[::1]/cb',
  'http://[::1]:65535/cb?state=x',
])('%s may be a redirect URI', (uri) => {
  expect(redirectUriIssue(uri)).toBeUndefined();
});

test.each([
  ['http://localhost/cb', 'localhost'],
  ['http://localhost:8080/cb', 'localhost'],
  ['https://localhost/cb', 'localhost'],
  ['https://app.localhost/cb', 'localhost'],
  ['http://192.168.1.10/cb', 'http only on the loopback'],
  ['http://example.com/cb', 'http only on the loopback'],
  ['http://127.1/cb', 'http only on the loopback'],
  ['http://127.0.0.2/cb', 'http only on the loopback'],
  ['http://[0:0:0:0:0:0:0:1]/cb', 'http only on the loopback'],
  ['http://127.0.0.1.nip.io/cb', 'http only on the loopback'],
  ['https://a.example/cb#x', 'fragment'],
  ['https://a.example/cb#', 'fragment'],
  ['https://a.example/x/../cb', 'canonical'],
  ['https://a.example/x/%2e%2e/cb', 'canonical'],
  ['http://127.0.0.1/x/../cb', 'canonical'],
  ['https://user:pw@a.example/cb', 'user name or password'],
  ['https://user@a.example/cb', 'user name or password'],
  ['http://user@127.0.0.1/cb', 'user name or password'],
  ['myapp://cb', 'must use https'],
  ['com.example.app:/cb', 'valid absolute URI'],
  ['javascript:alert(1)', 'valid absolute URI'],
  ['ftp://a.example/cb', 'must use https'],
  ['/relative/cb', 'valid absolute URI'],
  ['not a uri', 'whitespace'],
  ['https://a.example/c\nb', 'whitespace'],
  ['', '1 to 2000'],
  [`https://a.example/${'x'.repeat(2000)}`, '1 to 2000'],
])('%s is refused (%s)', (uri, why) => {
  expect(redirectUriIssue(uri)).toContain(why);
});

test.each([
  ['https://a.example/cb', 'https://a.example/cb', true],
  ['https://a.example/cb', 'https://a.example/cb/', false],
  ['https://a.example/cb', 'https://A.example/cb', true],
  ['https://a.example/cb', 'HTTPS://a.example:443/cb', true],
  ['https://a.example/cb', 'https://a.example:80/cb', false],
  ['https://a.example/Cb', 'https://a.example/cb', false],
  ['https://a.example:8443/cb', 'https://a.example:9443/cb', false],
  ['https://a.example/cb', 'https://a.example/cb?x=1', false],
  ['http://127.0.0.1/cb', 'http://127.0.0.1:51234/cb', true],
  ['http://127.0.0.1:8080/cb', 'http://127.0.0.1:9090/cb', true],
  ['http://[::1]/cb?x=1', 'http://[::1]:4000/cb?x=1', true],
  ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/other', false],
  ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb?x=1', false],
  ['http://127.0.0.1/cb', 'http://[::1]:5000/cb', false],
  ['http://127.0.0.1/cb', 'https://127.0.0.1:5000/cb', false],
  ['http://127.0.0.1/cb', 'http://localhost:5000/cb', false],
  ['http://127.0.0.1/cb', 'http://127.0.0.1:5000/cb#x', false],
  ['http://127.0.0.1/cb', 'http://u@127.0.0.1:5000/cb', false],
])('registered %s matches requested %s: %s', (registered, requested, matches) => {
  expect(redirectUriMatches(registered, requested)).toBe(matches);
});

test.each([
  ['HTTPS://App.Example.COM:443/Callback?X=1', 'https://app.example.com/Callback?X=1'],
  ['https://app.example.com:8443/cb', 'https://app.example.com:8443/cb'],
  ['https://app.example.com:/cb', 'https://app.example.com/cb'],
  ['HTTP://127.0.0.1:80/cb', 'http://127.0.0.1/cb'],
  ['http://[::1]:8080/cb', 'http://[::1]:8080/cb'],
  ['https://app.example.com', 'https://app.example.com'],
])('%s is stored and compared as %s: scheme and host in lower case, no default port, path and query as written', (uri, canonical) => {
  expect(canonicalRedirectUri(uri)).toBe(canonical);
  expect(redirectUriIssue(canonical)).toBeUndefined();
});
