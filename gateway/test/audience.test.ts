// Which resource each credential may be used at: the rule behind the gateway's audience check.
import { acceptsAudience } from '../src/auth/audience.js';
import { resourcesOf } from '../src/oauth/resources.js';

const resources = resourcesOf('https://api.example.com');
const user = (audience: string) => ({ principal: { type: 'user' as const, id: 'u', name: 'u' }, audience });

test('an OAuth token works only at the resource it was issued for', () => {
  expect(acceptsAudience(user('https://api.example.com'), 'api', resources)).toBe(true);
  expect(acceptsAudience(user('https://api.example.com'), 'mcp', resources)).toBe(false);
  expect(acceptsAudience(user('https://api.example.com/mcp'), 'mcp', resources)).toBe(true);
  expect(acceptsAudience(user('https://api.example.com/mcp'), 'api', resources)).toBe(false);
  // Another domain's resources are other resources.
  expect(acceptsAudience(user('https://tenant.example'), 'api', resources)).toBe(false);
  expect(acceptsAudience(user('https://tenant.example/mcp'), 'mcp', resources)).toBe(false);
});

test('a token recorded without an audience is for the REST API; a service-account key works everywhere', () => {
  expect(acceptsAudience(user(''), 'api', resources)).toBe(true);
  expect(acceptsAudience(user(''), 'mcp', resources)).toBe(false);
  const key = { principal: { type: 'service_account' as const, id: 'k', name: 'k' }, audience: '' };
  expect(acceptsAudience(key, 'api', resources)).toBe(true);
  expect(acceptsAudience(key, 'mcp', resources)).toBe(true);
});
