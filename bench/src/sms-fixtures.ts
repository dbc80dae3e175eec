// The SMS runs' sender: a bench number with outbound SMS enabled.
import { expectApi } from './api-client.js';
import { buyBenchNumber, type BenchNumber } from './number-fixtures.js';

export type SmsSender = BenchNumber;

/** A valid non-US destination: no A2P rules apply, and it is none of the sandbox's magic failure numbers. */
export const benchSmsDestination = '+442071838750';

export async function prepareSmsSender(baseUrl: string, apiKey: string): Promise<SmsSender> {
  const sender = await buyBenchNumber(baseUrl, apiKey);
  await expectApi(200, baseUrl, apiKey, 'PATCH', `/api/v1/phone-numbers/${sender.id}`, { sms_outbound_enabled: true });
  return sender;
}
