// Buys one sandbox number for the root workspace (its wallet issues credits, so it pays without
// being funded): the sender of the SMS runs and the caller of the call runs.
import { callApi, expectApi } from './api-client.js';

export interface BenchNumber {
  id: string;
  number: string;
}

export async function buyBenchNumber(baseUrl: string, apiKey: string): Promise<BenchNumber> {
  const offers = (await expectApi(200, baseUrl, apiKey, 'GET', '/api/v1/phone-numbers/available?country=US&limit=50')) as { data: { number: string }[] };
  for (const { number } of offers.data) {
    const bought = await callApi(baseUrl, apiKey, 'POST', '/api/v1/phone-numbers', { number });
    // Another workspace, or an earlier section of the run, may hold the offer already: try the next one.
    if (bought.status === 409) continue;
    if (bought.status !== 201) throw new Error(`POST /api/v1/phone-numbers answered ${bought.status}: ${JSON.stringify(bought.json)}`);
    return { id: (bought.json as { data: { id: string } }).data.id, number };
  }
  throw new Error(`none of the ${offers.data.length} available US numbers could be bought`);
}
