// The OAuth rate limits behind a proxy, through the real gateway (this test, on loopback, plays the
// ingress controller): without VOICE_TRUSTED_PROXIES, X-Forwarded-For changes nothing and every
// request shares the proxy's budget; with the proxy trusted, each client has a budget of its own,
// and a forged hop left of a client's real address does not buy it a new one.
import { startTestPlatform, type TestPlatform } from './support/platform.js';

const limits = { VOICE_OAUTH_RATE_LIMITS: 'register=20,authorize=60,token=2', VOICE_OAUTH_RATE_LIMIT_WINDOW_SECONDS: '3600' };

/** The status of one (refused, but counted) token request, as sent through a proxy that forwards `forwardedFor`. */
async function tokenStatus(platform: TestPlatform, forwardedFor?: string): Promise<number> {
  const response = await fetch(`${platform.running.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) },
    body: 'grant_type=password&client_id=x',
  });
  await response.arrayBuffer();
  return response.status;
}

test('without VOICE_TRUSTED_PROXIES a forged X-Forwarded-For changes nothing: all requests share one budget', async () => {
  const platform = await startTestPlatform(limits);
  try {
    expect(await tokenStatus(platform, '203.0.113.1')).toBe(400);
    expect(await tokenStatus(platform, '203.0.113.2')).toBe(400);
    expect(await tokenStatus(platform, '203.0.113.3')).toBe(429);
    expect(await tokenStatus(platform)).toBe(429);
  } finally {
    await platform.close();
  }
});

test.each(['127.0.0.1/8', 'loopback'])('VOICE_TRUSTED_PROXIES=%s: a budget per forwarded client, and a forged hop does not escape it', async (trusted) => {
  const platform = await startTestPlatform({ ...limits, VOICE_TRUSTED_PROXIES: trusted });
  try {
    const a = '203.0.113.10';
    const b = '2001:db8::20';
    expect([await tokenStatus(platform, a), await tokenStatus(platform, a), await tokenStatus(platform, a)]).toEqual([400, 400, 429]);
    // Another client is unaffected by a's spent budget.
    expect(await tokenStatus(platform, b)).toBe(400);
    // a prepends a hop of its own: the proxy appends a's real address, and that is what counts.
    expect(await tokenStatus(platform, `198.51.100.77, ${a}`)).toBe(429);
    expect(await tokenStatus(platform, `198.51.100.78, ${b}`)).toBe(400);
    expect(await tokenStatus(platform, b)).toBe(429);
    // The proxy's own requests (no X-Forwarded-For) are keyed on its address, apart from its clients.
    expect(await tokenStatus(platform)).toBe(400);
  } finally {
    await platform.close();
  }
});
