// GET /history end to end: the workspace's calls (the calls service's), SMS (telephony's) and
// e-mails (the mail outbox's) as one timeline, newest first, each filter (channel, contact number or
// address, time range) and pages across channels; bad filters are 400 and change nothing; another
// workspace's items never show; calls:read is needed; MCP list_history answers what REST answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(() => platform?.close());

interface Item {
  id: string;
  channel: string;
  direction: string;
  status: string;
  from: string;
  to: string;
  preview: string | null;
  created_at: string;
}

const london = '+442071838750';
const londonOther = '+442071838751';
const sanFrancisco = '+14155550123';
/** The sandbox runtime keeps these calls talking, so their state does not move under the test. */
const holdOn = { sandbox_script: [{ pause_ms: 600_000 }] };

/** A workspace with two calls and two SMS, made in this order: call to London, SMS to London, call to San Francisco, SMS to the other London number. */
async function busyWorkspace() {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '10.0000');
  const number = await buySmsNumber(platform.api, workspace.key);
  const assistant = await platform.api.post('/assistants', workspace.key, { name: 'Caller' });
  expect(assistant.status).toBe(201);
  const call = async (to: string) => {
    const made = await platform.api.post('/calls', workspace.key, { assistant_id: assistant.body.data.id, from: number.number, to, metadata: holdOn });
    expect(made.status).toBe(201);
    return made.body.data.id as string;
  };
  const sms = async (to: string, body: string) => {
    const sent = await platform.api.post('/sms/send', workspace.key, { from_number_id: number.id, to, body });
    expect(sent.status).toBe(202);
    return sent.body.data.id as string;
  };
  const ids = [await call(london), await sms(london, 'Your table is ready.'), await call(sanFrancisco), await sms(londonOther, 'See you soon.')];
  return { ...workspace, number, ids: ids.reverse() };
}

const history = async (key: string, query = '') => {
  const response = await platform.api.get(`/history${query}`, key);
  expect(response.status).toBe(200);
  return { items: response.body.data as Item[], total: response.body.meta.pagination.total as number };
};

test('calls and SMS come as one timeline, newest first, each with its channel, parties and preview', async () => {
  const { key, number, ids } = await busyWorkspace();
  const { items, total } = await history(key);
  expect(total).toBe(4);
  expect(items.map((item) => item.id)).toEqual(ids);
  expect(items.map((item) => item.channel)).toEqual(['sms', 'call', 'sms', 'call']);
  expect(items[0]).toEqual({ id: ids[0], channel: 'sms', direction: 'outbound', status: expect.any(String), from: number.number, to: londonOther, preview: 'See you soon.', created_at: expect.any(String) });
  expect(items[1]).toMatchObject({ channel: 'call', direction: 'outbound', from: number.number, to: sanFrancisco });
  const times = items.map((item) => item.created_at);
  expect([...times].sort().reverse()).toEqual(times);

  // Pages cut the merged timeline, whatever channel each item is of.
  const second = await history(key, '?limit=2&offset=1');
  expect(second.items.map((item) => item.id)).toEqual(ids.slice(1, 3));
  expect(second.total).toBe(4);
});

test('each filter: channel, contact number, time range, and an address that matches no call or SMS', async () => {
  const { key, ids } = await busyWorkspace();
  const idsOf = async (query: string) => (await history(key, query)).items.map((item) => item.id);
  expect(await idsOf('?channel=sms')).toEqual([ids[0], ids[2]]);
  expect(await idsOf('?channel=call')).toEqual([ids[1], ids[3]]);
  expect(await idsOf('?channel=email')).toEqual([]);
  expect(await idsOf(`?contact=${encodeURIComponent('+44 20 7183 8750')}`)).toEqual([ids[2], ids[3]]);
  expect(await idsOf(`?contact=${encodeURIComponent(london)}&channel=call`)).toEqual([ids[3]]);
  expect(await idsOf('?contact=someone%40example.com')).toEqual([]);
  const all = (await history(key)).items;
  const from = all[2]!.created_at;
  expect(await idsOf(`?created_from=${from}`)).toEqual(ids.slice(0, 3));
  expect(await idsOf(`?created_to=${from}`)).toEqual([ids[3]]);
  expect(await idsOf(`?created_from=${from}&created_to=${all[0]!.created_at}`)).toEqual([ids[1], ids[2]]);
});

test('bad filters are 400 naming the field', async () => {
  const { key } = await platform.workspace();
  const refused = async (query: string, field: string) => {
    const response = await platform.api.get(`/history${query}`, key);
    expectError(response, 400, 'invalid_request');
    expect(JSON.stringify(response.body.error.details)).toContain(field);
  };
  await refused('?channel=fax', 'channel');
  await refused('?contact=not-a-contact', 'contact');
  await refused('?contact=%2B1', 'contact');
  await refused('?created_from=yesterday', 'created_from');
  await refused('?created_from=2026-01-02T00:00:00.000Z&created_to=2026-01-01T00:00:00.000Z', 'created_to');
  await refused('?offset=990&limit=20', 'offset');
  await refused('?limit=0', 'limit');
  await refused('?colour=blue', 'colour');
});

test('another workspace sees none of it; calls:read is needed', async () => {
  const { id, key } = await busyWorkspace();
  const other = await platform.workspace();
  expect(await history(other.key)).toEqual({ items: [], total: 0 });
  expect((await history(await platform.key(id, ['calls:read']))).total).toBe(4);
  expectError(await platform.api.get('/history', await platform.key(id, ['phone_numbers:read', 'settings:read'])), 403, 'forbidden');
  expectError(await platform.api.get('/history'), 401, 'unauthorized');
  expect((await history(key)).total).toBe(4);
});

test('MCP list_history answers what REST answers', async () => {
  const { key } = await busyWorkspace();
  // The sandbox carrier moves each SMS from sent to delivered a moment later: an answer counts when
  // REST answered the same just before and just after it.
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=calls`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    const compared = await eventually(async () => {
      const before = (await history(key, '?channel=sms')).items;
      const answer = (await client.callTool({ name: 'list_history', arguments: { channel: 'sms' } })) as { isError?: boolean; structuredContent?: { data: Item[] } };
      const after = (await history(key, '?channel=sms')).items;
      return JSON.stringify(before) === JSON.stringify(after) ? { answer, rest: after } : undefined;
    }, 30_000, 'REST to answer the same before and after MCP');
    expect(compared.answer.isError).toBeFalsy();
    expect(compared.rest).toHaveLength(2);
    expect(compared.answer.structuredContent!.data).toEqual(compared.rest);
  } finally {
    await client.close();
  }
});
