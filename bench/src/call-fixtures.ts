// The call and dial runs' caller: an assistant of the root workspace and a bench number to call from. The
// sandbox carrier answers the destination and the sandbox voice runtime plays a one-step script (the
// first message, then the assistant hangs up), so each call is short and ends by itself.
import { expectApi } from './api-client.js';
import { buyBenchNumber } from './number-fixtures.js';

export interface BenchCaller {
  assistantId: string;
  /** E.164 of the calling number. */
  from: string;
  /** The calling number's id (what a campaign names it by). */
  numberId: string;
}

/** A destination the sandbox carrier answers (none of its magic busy, no-answer or failing numbers). */
export const benchCallDestination = '+14155550123';

/** What each call's runtime plays after the first message. */
export const benchCallScript = [{ hangup: 'assistant' }];

export async function prepareCaller(baseUrl: string, apiKey: string): Promise<BenchCaller> {
  const assistant = (await expectApi(201, baseUrl, apiKey, 'POST', '/api/v1/assistants', {
    name: `Bench caller ${Date.now()}`,
    first_message: 'Hello, this is the bench.',
    end_call: { max_duration_seconds: 60 },
  })) as { data: { id: string } };
  const number = await buyBenchNumber(baseUrl, apiKey);
  return { assistantId: assistant.data.id, from: number.number, numberId: number.id };
}
