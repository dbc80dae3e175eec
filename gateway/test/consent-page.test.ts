// The consent page's account of a client, rendered: the destination always, the publisher of a
// Client ID Metadata Document as a fact, and everything a client says of itself as a claim.
import { consentPage, type ClientView } from '../src/oauth/page/pages.js';

const render = (client: Partial<ClientView>) =>
  consentPage({
    platformName: 'Acme Voice',
    client: { redirectHost: 'app.example.com', redirectLoopback: false, claimedName: '', claimedUri: '', ...client },
    scopes: ['assistants:read'],
    request: { client_id: 'x' },
    csrfToken: 'token',
  });

test('a metadata-document client is named by the host that published it, its claims still marked unverified', () => {
  const html = render({ documentHost: 'agent.example', claimedName: 'Agent', claimedUri: 'https://agent.example' });
  expect(html).toContain('<p>The application is described by a document published at <strong>agent.example</strong>.</p>');
  expect(html).not.toContain('Unverified application');
  expect(html).toContain('<p class="claim">It calls itself “Agent”, https://agent.example: not verified.</p>');
  expect(html).toContain('<p class="redirect-host">app.example.com</p>');
});

test('whatever a client claims is escaped, never markup', () => {
  const html = render({ claimedName: '<img src=x onerror=alert(1)>', claimedUri: 'https://a.example/"><script>' });
  expect(html).not.toContain('<img');
  expect(html).not.toContain('<script>');
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
});

test('an internationalised host is shown in punycode, so a look-alike shows', () => {
  const html = render({ redirectHost: new URL('https://аpple.example/cb').host });
  expect(html).toContain('<p class="redirect-host">xn--pple-43d.example</p>');
});
