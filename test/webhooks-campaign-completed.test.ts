// campaign.completed end to end, in one process with the sandbox carrier and voice runtime: when a
// small campaign calls its last lead and completes, an endpoint that asked for campaign.completed gets
// exactly one signed event (the campaign's id, name, completion time and leads by status, nothing
// else), and an endpoint of the same workspace that did not ask for it gets none. The completion's event
// delivered again (as JetStream does after a consumer died before its ack) sends nothing more.
import { create, toBinary } from '@bufbuild/protobuf';
import { campaignCompletedSubject } from '@voice/runtime/events';
import { CampaignCompletedSchema } from '@voice/proto/voice/campaigns/v1/events';
import { publishEventCopy } from './support/event-copies.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { dayWindow } from './support/campaigns.js';
import { buySmsNumber, eventually } from './support/telephony.js';
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from './support/webhook-receiver.js';

let platform: TestPlatform;
let subscribed: WebhookReceiver;
let other: WebhookReceiver;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0', VOICE_EGRESS_ALLOW_PRIVATE: 'true' });
  subscribed = await startWebhookReceiver();
  other = await startWebhookReceiver();
});
afterAll(async () => {
  await subscribed?.close();
  await other?.close();
  await platform?.close();
});

/** Paths under /api/v1 in full: the test client sends bare /webhooks/… to the carrier callbacks. */
const api = (path: string) => `/api/v1${path}`;

async function createEndpoint(key: string, url: string, eventTypes: string[]) {
  const created = await platform.api.post(api('/webhooks'), key, { url, event_types: eventTypes });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
}

const completedEvents = (receiver: WebhookReceiver) => receiver.received.filter((request) => request.event.type === 'campaign.completed');

test('a completed campaign sends one signed campaign.completed to the endpoint that asked for it, none to one that did not', async () => {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '20.0000', '0');
  const number = await buySmsNumber(platform.api, workspace.key, { enable: false });
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller', first_message: 'Hello {{name}}.' });
  expect(assistant.status).toBe(201);
  const wanting = await createEndpoint(workspace.key, subscribed.url, ['campaign.completed']);
  // Asks for the calls' ends, which this campaign makes too: it is live, yet hears nothing of the completion.
  await createEndpoint(workspace.key, other.url, ['call.ended']);

  const created = await platform.api.post('/campaigns', workspace.key, {
    name: 'Renewals',
    assistant_id: assistant.body.data.id,
    from_number_ids: [number.id],
    window: dayWindow('open'),
    pacing: { max_concurrent: 3, calls_per_minute: 600 },
  });
  expect(created.status).toBe(201);
  const campaignId = created.body.data.id as string;
  const phones = ['+15005551301', '+15005551302', '+15005551303'];
  for (const phone of phones) expect((await platform.api.post(`/campaigns/${campaignId}/leads`, workspace.key, { phone, name: 'Ada' })).status).toBe(201);
  expect((await platform.api.post(`/campaigns/${campaignId}/start`, workspace.key, {})).status).toBe(200);

  const campaign = await eventually(async () => {
    const read = (await platform.api.get(`/campaigns/${campaignId}`, workspace.key)).body.data;
    return read.status === 'completed' ? read : undefined;
  }, 60_000, 'the campaign to complete');
  const [request] = await eventually(async () => (completedEvents(subscribed).length > 0 ? completedEvents(subscribed) : undefined), 15_000, 'the campaign.completed event');

  expect(request!.event).toEqual({
    id: expect.any(String),
    type: 'campaign.completed',
    created_at: campaign.stopped_at,
    data: {
      id: campaignId,
      name: 'Renewals',
      completed_at: campaign.stopped_at,
      leads: { total: 3, pending: 0, calling: 0, completed: 3, failed: 0, retry_scheduled: 0, do_not_call: 0, removed: 0 },
    },
  });
  expect(request!.event.data.leads).toEqual(campaign.progress.leads);
  const header = request!.headers['voice-signature'] as string;
  expect(await verifySignature(request!.rawBody, header, wanting.secret)).toBe(true);
  expect(await verifySignature(request!.rawBody.replace('Renewals', 'Renewal5'), header, wanting.secret)).toBe(false);

  // The other endpoint is live (it hears every call's end) but never the completion; the wanting one hears it once.
  await eventually(async () => (other.received.filter((r) => r.event.type === 'call.ended').length >= phones.length ? true : undefined), 15_000, 'the calls’ ends at the other endpoint');
  const deliveries = await eventually(async () => {
    const listed = await platform.api.get(api(`/webhooks/${wanting.id}/deliveries`), workspace.key);
    expect(listed.status).toBe(200);
    const delivered = (listed.body.data as { event_id: string; event_type: string; status: string }[]).filter((delivery) => delivery.status === 'delivered');
    return delivered.length > 0 ? delivered : undefined;
  }, 15_000, 'the delivery to be recorded as delivered');
  expect(deliveries).toEqual([expect.objectContaining({ event_id: request!.event.id, event_type: 'campaign.completed' })]);

  // The same completion twice more, as new stream messages: the webhook event is named by the completion.
  const copy = create(CampaignCompletedSchema, { eventId: request!.event.id, workspaceId: workspace.id, campaign: { id: campaignId, settings: { name: 'Renewals' } } });
  for (let i = 0; i < 2; i += 1) await publishEventCopy(platform, campaignCompletedSubject, toBinary(CampaignCompletedSchema, copy));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(completedEvents(subscribed)).toHaveLength(1);
  expect(completedEvents(other)).toHaveLength(0);
  expect((await platform.api.get(api(`/webhooks/${wanting.id}/deliveries`), workspace.key)).body.data).toHaveLength(1);
});
