// Tier 3: the calls service's routes on the real server (port 0, HTTP/2) with a real client.
import { Code } from '@connectrpc/connect';
import { newId } from '@voice/runtime/ids';
import { CallStatus, CallsService } from '@voice/proto/voice/calls/v1/calls';
import { failure, setup, type Harness } from './harness.js';

let h: Harness<typeof CallsService>;
beforeAll(async () => {
  h = await setup(CallsService, 'server');
});
afterAll(async () => {
  await h.close();
});

test('a call placed over HTTP/2 reads back; unsigned callers and other workspaces are refused', async () => {
  const [workspace, assistantId] = [newId(), newId()];
  h.peers.addAssistant(workspace, assistantId, { end_call: { max_duration_seconds: 60 } });
  h.peers.addNumber(workspace, '+442071838750', newId());
  h.holds.wallets.set(workspace, { minuteUnits: 1_000, creditUnits: 0 });
  const options = h.tier.inWorkspace(workspace);
  const { call } = await h.tier.client.createCall({ assistantId, from: '+442071838750', to: '+14155550123', workspacePlan: 'starter' }, options);
  expect((await h.tier.client.getCall({ id: call!.id }, options)).call).toMatchObject({ id: call!.id, status: CallStatus.QUEUED });
  expect((await failure(h.tier.client.getCall({ id: call!.id }))).code).toBe(Code.Unauthenticated);
  expect((await failure(h.tier.client.getCall({ id: call!.id }, h.tier.inWorkspace(newId())))).code).toBe(Code.NotFound);
});
