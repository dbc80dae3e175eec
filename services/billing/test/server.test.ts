// Tier 3: the billing service on a real server (port 0, loopback) with a real HTTP/2 client: what
// crosses the wire (signed callers, 64-bit amounts, error details, concurrent calls on one
// connection) and a clean close.
import { Code, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { BillingService, HoldStatus } from '@voice/proto/voice/billing/v1/billing';
import { amount, failure, heldBy, holdRequest, setup, type BillingTier } from './harness.js';

let tier: BillingTier;
beforeAll(async () => {
  tier = await setup('server');
});
afterAll(() => tier.close());

test('a hold is authorized and captured over HTTP/2, and the balance shows it to the unit', async () => {
  const customer = tier.directory.add();
  await tier.fund(customer, 9_000_000_000, 60);
  const request = holdRequest(customer, 1_000, 30);
  expect(heldBy(await tier.client.authorize(request, tier.internal()))).toMatchObject({ status: HoldStatus.OPEN, held: amount(1_000, 30) });
  const captured = await tier.client.capture({ holdId: request.holdId, workspaceId: customer, amount: amount(400, 10) }, tier.internal());
  expect(captured.hold).toMatchObject({ status: HoldStatus.CAPTURED, captured: amount(400, 10) });
  expect(await tier.balanceOf(customer)).toMatchObject({ balance: amount(8_999_999_600, 50), available: amount(8_999_999_600, 50), version: 3n });
});

test('unsigned calls, callers that are not platform services and bad input are refused with their reasons', async () => {
  const customer = tier.directory.add();
  expect((await failure(tier.client.getBalance({}))).code).toBe(Code.Unauthenticated);
  const transfer = { fromWorkspaceId: tier.directory.root, toWorkspaceId: customer, amount: amount(5), transferId: 'a-transfer' };
  expect(await failure(tier.client.transfer(transfer, tier.member(customer)))).toMatchObject({ code: Code.PermissionDenied, reason: 'forbidden' });
  expect(await failure(tier.client.transfer({ ...transfer, amount: amount(0) }, tier.internal()))).toMatchObject({
    code: Code.InvalidArgument,
    reason: 'invalid_request',
    fields: [expect.objectContaining({ field: 'amount' })],
  });
  expect((await tier.balanceOf(customer)).balance).toMatchObject(amount(0));
});

test('of concurrent holds over one connection on a wallet that can afford three, exactly three are held', async () => {
  const customer = tier.directory.add();
  await tier.fund(customer, 300);
  const answers = await Promise.all(Array.from({ length: 10 }, () => tier.client.authorize(holdRequest(customer, 100), tier.internal())));
  expect(answers.filter((answer) => answer.outcome.case === 'hold')).toHaveLength(3);
  expect(await tier.balanceOf(customer)).toMatchObject({ balance: amount(300), available: amount(0) });
});

test('after close the port is free and a new client reaches nothing', async () => {
  const closing = await setup('server');
  const workspace = closing.directory.add();
  expect((await closing.balanceOf(workspace)).balance).toMatchObject(amount(0));
  await closing.close();
  const client = createClient(BillingService, createConnectTransport({ baseUrl: closing.url!, httpVersion: '2' }));
  expect((await failure(client.getBalance({}, closing.member(workspace)))).message).toMatch(/ECONNREFUSED/);
});
