// A campaign call a voicemail box answers, end to end through the sandbox carrier (its voicemail
// destination) and the sandbox runtime (voicemail.detected, end reason `voicemail`): the lead is
// retried when the retry policy lists `voicemail` and fails once its attempts are spent; without it
// in the policy the lead is completed after one call.
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { callingWorkspace, dayWindow } from './support/campaigns.js';
import { eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform.close());

/** The sandbox carrier's destination a voicemail box answers. */
const voicemailBox = '+15005550010';

async function campaignWithVoicemailLead(retryOn: string[]) {
  const ws = await callingWorkspace(platform, { credits: '20.0000', minutes: '0' });
  const created = await platform.api.post('/campaigns', ws.key, {
    name: 'Voicemail',
    assistant_id: ws.assistantId,
    from_number_ids: [ws.number.id],
    window: dayWindow('open'),
    pacing: { max_concurrent: 2, calls_per_minute: 600 },
    retry: { max_attempts: 2, delay_minutes: 1, on: retryOn },
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  for (const phone of [voicemailBox, '+15005550501']) expect((await platform.api.post(`/campaigns/${id}/leads`, ws.key, { phone })).status).toBe(201);
  expect((await platform.api.post(`/campaigns/${id}/start`, ws.key, {})).status).toBe(200);
  return { ws, id };
}

async function settled(key: string, id: string, timeoutMs: number) {
  await eventually(async () => ((await platform.api.get(`/campaigns/${id}`, key)).body.data.status === 'completed' ? true : undefined), timeoutMs, 'the campaign to complete');
  const leads = (await platform.api.get(`/campaigns/${id}/leads`, key)).body.data as { phone: string; status: string; attempts: number; call_ids: string[] }[];
  return new Map(leads.map((lead) => [lead.phone, lead]));
}

test('a voicemail the policy does not retry completes the lead after one call, its call ended with reason voicemail', async () => {
  const { ws, id } = await campaignWithVoicemailLead(['busy']);
  const leads = await settled(ws.key, id, 60_000);
  const lead = leads.get(voicemailBox)!;
  expect(lead).toMatchObject({ status: 'completed', attempts: 1 });
  expect(lead.call_ids).toHaveLength(1);
  const call = await platform.api.get(`/calls/${lead.call_ids[0]}`, ws.key);
  expect(call.body.data).toMatchObject({ status: 'completed', end_reason: 'voicemail' });
  expect((call.body.data.events as { type: string }[]).map((event) => event.type)).toContain('voicemail.detected');
  // A person answering ends as before.
  expect(leads.get('+15005550501')).toMatchObject({ status: 'completed', attempts: 1 });
}, 90_000);

test('a voicemail the policy retries is called again after the delay and fails once the attempts are spent', async () => {
  const { ws, id } = await campaignWithVoicemailLead(['voicemail']);
  await eventually(
    async () => ((await platform.api.get(`/campaigns/${id}/leads?status=retry_scheduled`, ws.key)).body.data.length === 1 ? true : undefined),
    30_000,
    'the voicemail lead to be scheduled for a retry',
  );
  // The second attempt comes after the policy's delay of a minute.
  const leads = await settled(ws.key, id, 110_000);
  const lead = leads.get(voicemailBox)!;
  expect(lead).toMatchObject({ status: 'failed', attempts: 2 });
  expect(lead.call_ids).toHaveLength(2);
  for (const callId of lead.call_ids) expect((await platform.api.get(`/calls/${callId}`, ws.key)).body.data).toMatchObject({ end_reason: 'voicemail' });
  expect(leads.get('+15005550501')).toMatchObject({ status: 'completed', attempts: 1 });
}, 150_000);
