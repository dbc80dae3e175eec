// Caller ID codes are limited so no workspace can make the platform text or call a stranger's phone
// again and again, through the gateway with a Twilio-compatible server on loopback as the platform's
// carrier (it records every SMS and call, as the phone would get them): a number gets 3 codes a day
// whichever workspaces ask, deleting and adding a caller ID again counts, a workspace sends 10 an
// hour; beyond, 429 rate_limited with Retry-After, and nothing is sent, charged or stored.
import { expectError } from './support/api-client.js';
import { platformCarrierEnv, startFakeTwilio, type FakeTwilio } from './support/fake-twilio.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { balance, ledger } from './support/telephony.js';

let platform: TestPlatform;
let carrier: FakeTwilio;

beforeAll(async () => {
  carrier = await startFakeTwilio();
  platform = await startTestPlatform({ ...platformCarrierEnv(carrier), VOICE_CALLER_ID_SMS_FROM: '+14155550100' });
});
afterAll(async () => {
  await platform.close();
  await carrier.close();
});

let numberSequence = 0;
const freshNumber = () => `+1718555${String(1000 + (numberSequence += 1)).padStart(4, '0')}`;
/** Codes the carrier was asked to deliver to `number`, by SMS or call. */
const codesTo = (number: string) => carrier.sentMessages().filter((form) => form.To === number).length + carrier.placedCalls().filter((call) => call.form.To === number).length;
const addCallerId = (key: string, number: string, method: 'sms' | 'call' = 'call') => platform.api.post('/caller-ids', key, { phone_number: number, method });
const callerIdsOf = async (key: string) => (await platform.api.get('/caller-ids', key)).body.meta.pagination.total as number;

async function fundedWorkspace() {
  const workspace = await platform.workspace();
  await platform.fund(workspace.id, '5');
  return workspace;
}

function expectLimited(response: Awaited<ReturnType<typeof addCallerId>>, rule: string, windowSeconds: number) {
  expectError(response, 429, 'rate_limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
  expect(response.body.error.message).toContain(rule);
  expect(response.body.error.message).toMatch(/nothing was sent: retry after \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \(in \d+ s\)$/);
}

test('a number gets 3 codes a day across workspaces, a deleted and re-added caller ID counting again; the 4th is 429 and nothing is sent, charged or stored', async () => {
  const number = freshNumber();
  const first = await fundedWorkspace();
  const texted = await addCallerId(first.key, number, 'sms');
  expect(texted.status).toBe(201);
  expect((await platform.api.delete(`/caller-ids/${texted.body.data.id}`, first.key)).status).toBe(200);
  expect((await addCallerId(first.key, number)).status).toBe(201);
  const second = await fundedWorkspace();
  expect((await addCallerId(second.key, number)).status).toBe(201);
  expect(codesTo(number)).toBe(3);

  const third = await fundedWorkspace();
  for (const method of ['sms', 'call'] as const) expectLimited(await addCallerId(third.key, number, method), 'a number gets at most 3 verification codes per 24 h', 86_400);
  const deletedAgain = (await platform.api.get('/caller-ids', first.key)).body.data[0].id as string;
  expect((await platform.api.delete(`/caller-ids/${deletedAgain}`, first.key)).status).toBe(200);
  expectLimited(await addCallerId(first.key, number), 'a number gets at most 3', 86_400);
  expect(codesTo(number)).toBe(3);
  expect(await callerIdsOf(third.key)).toBe(0);
  expect(await callerIdsOf(first.key)).toBe(0);
  expect((await balance(platform.api, third.key)).available.credits).toBe('5.0000');
  expect((await ledger(platform.api, third.key)).filter((entry) => entry.kind === 'sms.outbound')).toEqual([]);

  const other = freshNumber();
  expect((await addCallerId(third.key, other, 'sms')).status).toBe(201);
  expect(codesTo(other)).toBe(1);
});

test('racing requests from five workspaces for one number: three codes are sent, two are 429', async () => {
  const number = freshNumber();
  const workspaces = await Promise.all([1, 2, 3, 4, 5].map(() => fundedWorkspace()));
  const answers = await Promise.all(workspaces.map(({ key }) => addCallerId(key, number)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 429, 429]);
  expect(codesTo(number)).toBe(3);
});

test('a workspace sends 10 codes an hour across its numbers; the 11th is 429 naming that limit, and the number stays free for others', async () => {
  const { key } = await fundedWorkspace();
  for (let index = 0; index < 10; index++) expect((await addCallerId(key, freshNumber())).status).toBe(201);
  const eleventh = freshNumber();
  expectLimited(await addCallerId(key, eleventh), 'this workspace may send at most 10 verification codes per 1 h', 3_600);
  expect(codesTo(eleventh)).toBe(0);
  expect(await callerIdsOf(key)).toBe(10);

  const other = await fundedWorkspace();
  expect((await addCallerId(other.key, eleventh)).status).toBe(201);
  expect(codesTo(eleventh)).toBe(1);
});
