// Tier 3: the campaigns service on a real server (port 0, loopback) with a real HTTP/2 client: what
// crosses the wire (signed callers, Structs of settings, a 10,000-row import, error details) and a clean close.
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { CampaignsService } from '@voice/proto/voice/campaigns/v1/campaigns';
import { newId } from '@voice/runtime/ids';
import { failure, setup, type CampaignsTier } from './harness.js';

let tier: CampaignsTier;
beforeAll(async () => {
  tier = await setup('server');
});
afterAll(() => tier.close());

test('a campaign is created, filled with 10,000 leads, started and stopped over HTTP/2', async () => {
  const workspaceId = newId();
  const options = tier.inWorkspace(workspaceId);
  const settings = { name: 'Wire', assistant_id: tier.peers.addAssistant(workspaceId), from_number_ids: [tier.peers.addNumber(workspaceId)] };
  const { campaign } = await tier.campaigns.client.createCampaign({ settings }, options);
  expect(campaign!.settings).toMatchObject({ ...settings, window: { time_zone: 'UTC' }, segment_id: null });
  const leads = Array.from({ length: 10_000 }, (_, i) => ({ phone: `+1415${String(3_000_000 + i)}`, variables: { row: i } }));
  const { results } = await tier.leads.addLeads({ campaignId: campaign!.id, leads }, options);
  expect(results.filter((row) => row.outcome === 'created')).toHaveLength(10_000);
  const started = (await tier.campaigns.client.startCampaign({ id: campaign!.id }, options)).campaign!;
  expect([started.status, started.leads?.pending]).toEqual(['running', 10_000]);
  expect((await tier.campaigns.client.stopCampaign({ id: campaign!.id }, options)).campaign!.status).toBe('stopped');
  expect(await failure(tier.campaigns.client.stopCampaign({ id: campaign!.id }, options))).toMatchObject({ code: Code.FailedPrecondition, reason: 'conflict' });
});

test('after close the port is free and a new client reaches nothing', async () => {
  const closing = await setup('server');
  const options = closing.inWorkspace(newId());
  expect((await closing.campaigns.client.listCampaigns({}, options)).total).toBe(0);
  await closing.close();
  const client = createClient(CampaignsService, createConnectTransport({ baseUrl: closing.url!, httpVersion: '2' }));
  expect((await failure(client.listCampaigns({}, options))).message).toMatch(/ECONNREFUSED/);
});
