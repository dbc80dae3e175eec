// Buys one sandbox number for the root workspace and enables outbound SMS on it. The root
// workspace's wallet issues credits, so it sends without being funded.
import { callApi, expectApi } from './api-client.js';

export interface SmsSender {
  id: string;
  number: string;
}

/** A valid non-US destination: no A2P rules apply, and it is none of the sandbox's magic failure numbers. */
export const benchSmsDestination = '+442071838750';

export async function prepareSmsSender(baseUrl: string, apiKey: string): Promise<SmsSender> {
  const offers = (await expectApi(200, baseUrl, apiKey, 'GET', '/api/v1/phone-numbers/available?country=US&limit=50')) as { data: { number: string }[] };
  for (const { number } of offers.data) {
    const bought = await callApi(baseUrl, apiKey, 'POST', '/api/v1/phone-numbers', { number });
    // Another workspace may hold the offer already: try the next one.
    if (bought.status === 409) continue;
    if (bought.status !== 201) throw new Error(`POST /api/v1/phone-numbers answered ${bought.status}: ${JSON.stringify(bought.json)}`);
    const { id } = (bought.json as { data: { id: string } }).data;
    await expectApi(200, baseUrl, apiKey, 'PATCH', `/api/v1/phone-numbers/${id}`, { sms_outbound_enabled: true });
    return { id, number };
  }
  throw new Error(`none of the ${offers.data.length} available US numbers could be bought`);
}
