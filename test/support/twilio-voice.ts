// The carrier's side of a call on the Twilio-compatible path, as the e2e tests play it: signed voice
// webhooks to the gateway (TwiML fetches, status and recording callbacks, inbound offers), and the
// TwiML's <Stream> read back so the test can connect the call's media as the carrier would.
import type { ApiResponse } from './api-client.js';
import { twilioSignature, type FakeTwilio } from './fake-twilio.js';
import type { TestPlatform } from './platform.js';

/** Posts a voice webhook to `path` (below the gateway), signed with the carrier's token unless `signature` is given. */
export function voiceWebhook(platform: TestPlatform, carrier: FakeTwilio, path: string, params: Record<string, string>, signature?: string): Promise<ApiResponse> {
  const url = `${platform.running.url}${path}`;
  return platform.api.request('POST', path, {
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature ?? twilioSignature(carrier.authToken, url, params) },
  });
}

/** The <Connect><Stream> of a TwiML answer: where the media goes and the parameters it carries. */
export function streamOf(twiml: string): { url: string; parameters: Record<string, string> } | undefined {
  const stream = /<Connect><Stream url="([^"]+)">(.*)<\/Stream><\/Connect>/.exec(twiml);
  if (!stream) return undefined;
  const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const parameters = Object.fromEntries([...stream[2]!.matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\/>/g)].map((match) => [unescape(match[1]!), unescape(match[2]!)]));
  return { url: unescape(stream[1]!), parameters };
}
