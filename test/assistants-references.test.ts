// References between assistants and the rest, across services: an assistant's tool_ids are tools of
// its workspace (asked of the tools service) and its transfers name its assistants; a number's and
// a builtin tool's assistant_id name an assistant of the workspace (telephony and tools ask the
// assistants service); an assistant still named by a number or a builtin tool cannot be deleted.
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { buySmsNumber } from './support/telephony.js';
import { apiTool } from './support/tools.js';

let platform: TestPlatform;
let owner: { id: string; key: string };
let stranger: { id: string; key: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  owner = await platform.workspace({ plan: 'pro' });
  stranger = await platform.workspace({ plan: 'pro' });
});
afterAll(() => platform.close());

const unknownId = '6f1c1d7e-9a5b-4c1e-8f00-123456789abc';
const newAssistant = async (key: string, body: Record<string, unknown> = {}) => {
  const response = await platform.api.post('/assistants', key, { name: 'Referenced', ...body });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; revision: number };
};

test('tool_ids must name tools of the workspace; a write that does not send them is not held up by a deleted one', async () => {
  const tool = (await platform.api.post('/tools', owner.key, apiTool())).body.data;
  const foreign = (await platform.api.post('/tools', stranger.key, apiTool())).body.data;
  const refused = await platform.api.post('/assistants', owner.key, { name: 'x', tool_ids: [tool.id, unknownId, foreign.id] });
  expectError(refused, 400, 'invalid_request');
  expect(fieldsOf(refused)).toEqual(['tool_ids.1', 'tool_ids.2']);
  const assistant = await newAssistant(owner.key, { tool_ids: [tool.id] });
  expect((await platform.api.delete(`/tools/${tool.id}`, owner.key)).status).toBe(200);
  const unrelated = await platform.api.patch(`/assistants/${assistant.id}`, owner.key, { first_message: 'Hi', expected_revision: 1 });
  expect(unrelated.status).toBe(200);
  expect(fieldsOf(await platform.api.patch(`/assistants/${assistant.id}`, owner.key, { tool_ids: [tool.id], expected_revision: 2 }))).toEqual(['tool_ids.0']);
  // Restoring a version that names the deleted tool is refused the same way.
  expect(fieldsOf(await platform.api.post(`/assistants/${assistant.id}/versions/1/restore`, owner.key, {}))).toEqual(['tool_ids.0']);
});

test('an assistant’s transfer names an assistant of its workspace', async () => {
  const target = await newAssistant(owner.key);
  const foreign = await newAssistant(stranger.key);
  const transfer = (id: string) => ({ name: 'Front', builtin_tools: [{ type: 'assistant_transfer', assistant_id: id }] });
  expect((await platform.api.post('/assistants', owner.key, transfer(target.id))).status).toBe(201);
  for (const id of [foreign.id, unknownId]) expect(fieldsOf(await platform.api.post('/assistants', owner.key, transfer(id)))).toEqual(['builtin_tools.0.assistant_id']);
});

test('a phone number’s assistant_id names an assistant of its workspace', async () => {
  await platform.fund(owner.id, '5');
  const number = await buySmsNumber(platform.api, owner.key, { enable: false });
  const assistant = await newAssistant(owner.key);
  const foreign = await newAssistant(stranger.key);
  for (const id of [foreign.id, unknownId]) {
    const refused = await platform.api.patch(`/phone-numbers/${number.id}`, owner.key, { assistant_id: id });
    expectError(refused, 400, 'invalid_request');
    expect(fieldsOf(refused)).toEqual(['assistant_id']);
  }
  const assigned = await platform.api.patch(`/phone-numbers/${number.id}`, owner.key, { assistant_id: assistant.id });
  expect(assigned.body.data.assistant_id).toBe(assistant.id);
});

test('a builtin tool’s assistant_id names an assistant of its workspace', async () => {
  const assistant = await newAssistant(owner.key);
  const foreign = await newAssistant(stranger.key);
  const tool = (id: string) => ({ name: `handoff_${Math.random().toString(36).slice(2, 8)}`, type: 'builtin', config: { type: 'assistant_transfer', assistant_id: id } });
  const refused = await platform.api.post('/tools', owner.key, tool(foreign.id));
  expectError(refused, 400, 'invalid_request');
  expect(fieldsOf(refused)).toEqual(['config.assistant_id']);
  const created = await platform.api.post('/tools', owner.key, tool(assistant.id));
  expect(created.status).toBe(201);
  const moved = await platform.api.patch(`/tools/${created.body.data.id}`, owner.key, { config: { type: 'assistant_transfer', assistant_id: unknownId }, expected_revision: 1 });
  expect(fieldsOf(moved)).toEqual(['config.assistant_id']);
});

test('DELETE is 409 conflict while a number or a builtin tool names the assistant, and succeeds once none does', async () => {
  await platform.fund(owner.id, '5');
  const assistant = await newAssistant(owner.key);
  const number = await buySmsNumber(platform.api, owner.key, { enable: false });
  await platform.api.patch(`/phone-numbers/${number.id}`, owner.key, { assistant_id: assistant.id });
  const tool = (await platform.api.post('/tools', owner.key, { name: 'handoff_final', type: 'builtin', config: { type: 'assistant_transfer', assistant_id: assistant.id } })).body.data;

  const both = await platform.api.delete(`/assistants/${assistant.id}`, owner.key);
  expectError(both, 409, 'conflict');
  expect(both.body.error.message).toContain('1 phone number and 1 builtin tool');
  await platform.api.patch(`/phone-numbers/${number.id}`, owner.key, { assistant_id: null });
  expect((await platform.api.delete(`/assistants/${assistant.id}`, owner.key)).body.error.message).toContain('1 builtin tool');
  await platform.api.delete(`/tools/${tool.id}`, owner.key);
  expect((await platform.api.delete(`/assistants/${assistant.id}`, owner.key)).body).toEqual({ data: { id: assistant.id, deleted: true } });
  // Another workspace's references never count: the stranger's own assistant deletes freely.
  const theirs = await newAssistant(stranger.key);
  expect((await platform.api.delete(`/assistants/${theirs.id}`, stranger.key)).status).toBe(200);
});
