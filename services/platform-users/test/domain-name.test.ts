// Which names a workspace may connect as its custom domain, and their canonical form.
import { checkDomainName } from '../src/domain/domain-name.js';

const platform = 'voice.example.net';

test.each([
  ['Voice.Example.COM', 'voice.example.com'],
  ['app.example.co.uk.', 'app.example.co.uk'],
  ['bücher.example', 'xn--bcher-kva.example'],
  ['  calls.example.org ', 'calls.example.org'],
])('%s is accepted as %s', (input, canonical) => {
  expect(checkDomainName(input, platform)).toEqual({ ok: true, domain: canonical });
});

test.each([
  ['', 'characters'],
  ['localhost', 'fully qualified'],
  ['app.localhost', 'public'],
  ['192.168.1.10', 'address'],
  ['[::1]', 'address'],
  ['example', 'fully qualified'],
  ['-bad.example.com', 'fully qualified'],
  ['bad-.example.com', 'fully qualified'],
  ['under_score.example.com', 'fully qualified'],
  ['a..b.example.com', 'fully qualified'],
  ['example.123', 'top-level'],
  [`${'a'.repeat(64)}.example.com`, 'fully qualified'],
  ['voice.example.net', 'platform'],
  ['tenant.voice.example.net', 'platform'],
  ['https://voice.example.com', 'valid'],
])('%s is refused (%s)', (input, issue) => {
  const result = checkDomainName(input, platform);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.issue).toContain(issue);
});
