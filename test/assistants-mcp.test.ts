// The assistant tools over /mcp with the official SDK client: the same operations, JSON and
// errors as REST, in the assistants toolset.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fullAssistant } from './support/assistants.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { mask } from './support/tools.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

async function connect(key: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
const errorOf = (answer: ToolAnswer) => JSON.parse(answer.content[0]!.text!).error as { code: string; message: string; details?: { field: string }[] };

test('the assistants toolset lists the assistant, voice and tool operations SPEC.md 4.3 names', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const client = await connect(key, '?toolsets=assistants');
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  expect(names).toEqual(['create_assistant', 'delete_assistant', 'get_assistant', 'get_voices', 'list_assistants', 'update_assistant']);
  const create = (await client.listTools()).tools.find((tool) => tool.name === 'create_assistant')!;
  expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['name', 'model', 'voice', 'builtin_tools', 'idempotency_key']));
  await client.close();
  const reader = await connect((await platform.workspace({ plan: 'pro', scopes: ['voices:read'] })).key);
  expect((await reader.listTools()).tools.map((tool) => tool.name)).toContain('get_voices');
  expect((await reader.listTools()).tools.map((tool) => tool.name)).not.toContain('list_assistants');
  await reader.close();
});

test('calls answer the same JSON as REST and change the same state', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const client = await connect(key);
  const created = await call(client, 'create_assistant', { ...fullAssistant('From MCP'), idempotency_key: 'mcp-assistant-1' });
  expect(created.isError).toBeFalsy();
  const assistant = created.structuredContent.data;
  expect(assistant).toMatchObject({ name: 'From MCP', revision: 1 });
  expect(assistant.builtin_tools[0].sip_headers).toEqual({ 'X-Account': mask });
  const replayed = await call(client, 'create_assistant', { ...fullAssistant('From MCP'), idempotency_key: 'mcp-assistant-1' });
  expect(replayed.structuredContent.data.id).toBe(assistant.id);

  expect((await call(client, 'get_assistant', { id: assistant.id })).structuredContent).toEqual((await platform.api.get(`/assistants/${assistant.id}`, key)).body);
  expect((await call(client, 'list_assistants', { q: 'from mcp' })).structuredContent).toEqual((await platform.api.get('/assistants?q=from%20mcp', key)).body);
  const updated = await call(client, 'update_assistant', { id: assistant.id, first_message: 'Hi from MCP', expected_revision: 1 });
  expect(updated.structuredContent.data).toMatchObject({ first_message: 'Hi from MCP', revision: 2 });
  expect((await call(client, 'get_voices', { provider: 'azure', language: 'de' })).structuredContent).toEqual((await platform.api.get('/voices?provider=azure&language=de', key)).body);
  expect((await call(client, 'delete_assistant', { id: assistant.id })).structuredContent).toEqual({ data: { id: assistant.id, deleted: true } });
  expect((await platform.api.get(`/assistants/${assistant.id}`, key)).status).toBe(404);
  await client.close();
});

test('errors are isError results with the REST code, message and fields', async () => {
  const { key } = await platform.workspace({ plan: 'pro' });
  const client = await connect(key);
  const invalid = await call(client, 'create_assistant', { name: 'x', model: { provider: 'openai', model: 'gpt-9' } });
  expect(invalid.isError).toBe(true);
  const rest = await platform.api.post('/assistants', key, { name: 'x', model: { provider: 'openai', model: 'gpt-9' } });
  expect(errorOf(invalid)).toEqual(rest.body.error);
  const created = (await platform.api.post('/assistants', key, { name: 'Target' })).body.data;
  await platform.api.patch(`/assistants/${created.id}`, key, { name: 'Moved on', expected_revision: 1 });
  expect(errorOf(await call(client, 'update_assistant', { id: created.id, name: 'Late', expected_revision: 1 })).code).toBe('revision_conflict');
  expect(errorOf(await call(client, 'get_assistant', { id: '00000000-0000-4000-8000-000000000000' })).code).toBe('not_found');
  // A voice only the enterprise plan includes: 403 on pro, created on enterprise.
  const premium = { name: 'ok', voice: { provider: 'elevenlabs', voice_id: 'charlotte' } };
  expect(errorOf(await call(client, 'create_assistant', premium)).code).toBe('forbidden');
  await client.close();
  const enterprise = await connect((await platform.workspace({ plan: 'enterprise' })).key);
  expect((await call(enterprise, 'create_assistant', premium)).isError).toBeFalsy();
  await enterprise.close();
});
