// paginate over a list API on loopback: the pages it asks for, the items it yields, where it stops.
import { randomUUID } from 'node:crypto';
import { createVoiceClient, paginate, VoiceApiError, type Schemas } from '../src/index.js';
import { pageOf, startLoopbackApi, type LoopbackApi } from './support/loopback-api.js';

const tool = (index: number): Schemas['Tool'] => ({
  id: randomUUID(),
  name: `tool_${index}`,
  description: '',
  type: 'builtin',
  config: { type: 'end_call' },
  is_active: true,
  revision: 1,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
});
const tools = Array.from({ length: 7 }, (_, index) => tool(index));

let api: LoopbackApi;
let items: readonly unknown[] = tools;
afterEach(async () => {
  await api.close();
  items = tools;
});

const pagesOf = (requests: LoopbackApi['requests']) => requests.map((request) => `${request.query.get('limit')}@${request.query.get('offset')}`);

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of iterator) collected.push(item);
  return collected;
}

test('yields every item in order, one request per page, until offset reaches the total', async () => {
  api = await startLoopbackApi((request) => pageOf(items, request.query));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  const names = (await collect(paginate(client, '/tools', { pageSize: 3 }))).map((item) => item.name);
  expect(names).toEqual(tools.map((item) => item.name));
  expect(pagesOf(api.requests)).toEqual(['3@0', '3@3', '3@6']);
  expect(api.requests.every((request) => request.path === '/api/v1/tools' && request.method === 'GET')).toBe(true);
});

test('an exact multiple of the page size needs no empty page after the last; the default page is the maximum, 200', async () => {
  items = tools.slice(0, 6);
  api = await startLoopbackApi((request) => pageOf(items, request.query));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  expect(await collect(paginate(client, '/tools', { pageSize: 3 }))).toHaveLength(6);
  expect(pagesOf(api.requests)).toEqual(['3@0', '3@3']);
  expect(await collect(paginate(client, '/tools'))).toHaveLength(6);
  expect(pagesOf(api.requests).slice(2)).toEqual(['200@0']);
});

test('sends the filters, the path parameters and the starting offset', async () => {
  const assistantId = randomUUID();
  api = await startLoopbackApi((request) => pageOf(items, request.query));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  await collect(paginate(client, '/tools', { query: { type: 'api', is_active: 'true' }, offset: 4, pageSize: 2 }));
  expect(api.requests.map((request) => Object.fromEntries(request.query))).toEqual([
    { type: 'api', is_active: 'true', limit: '2', offset: '4' },
    { type: 'api', is_active: 'true', limit: '2', offset: '6' },
  ]);
  api.requests.length = 0;
  await collect(paginate(client, '/assistants/{id}/versions', { path: { id: assistantId } }));
  expect(api.requests.map((request) => request.path)).toEqual([`/api/v1/assistants/${assistantId}/versions`]);
});

test('asks for the next page only when the previous one is used up', async () => {
  api = await startLoopbackApi((request) => pageOf(items, request.query));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  const iterator = paginate(client, '/tools', { pageSize: 3 });
  for (let taken = 0; taken < 3; taken += 1) await iterator.next();
  expect(api.requests).toHaveLength(1);
  await iterator.next();
  expect(api.requests).toHaveLength(2);
  await iterator.return();
});

test('stops at an empty page when items went away and the total no longer holds', async () => {
  // A total that promises more than the pages hold: items deleted between two pages.
  api = await startLoopbackApi((request) => {
    const answer = pageOf(tools.slice(0, 4), request.query);
    (answer.body as { meta: { pagination: { total: number } } }).meta.pagination.total = 10;
    return answer;
  });
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  expect(await collect(paginate(client, '/tools', { pageSize: 3 }))).toHaveLength(4);
  expect(pagesOf(api.requests)).toEqual(['3@0', '3@3', '3@4']);
});

test('a failed page throws the typed error after the items before it', async () => {
  api = await startLoopbackApi((request) =>
    request.query.get('offset') === '0'
      ? pageOf(items, request.query)
      : { status: 429, body: { error: { code: 'rate_limited', message: 'the workspace exceeded its rate limit' } }, headers: { 'retry-after': '7' } },
  );
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  const seen: string[] = [];
  const error = await (async () => {
    for await (const item of paginate(client, '/tools', { pageSize: 5 })) seen.push(item.name);
  })().catch((caught: unknown) => caught);
  expect(seen).toHaveLength(5);
  expect(error).toBeInstanceOf(VoiceApiError);
  expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 7, requestId: 'req-2' });
});

test('refuses a page size or offset the API would refuse, before any request', async () => {
  api = await startLoopbackApi((request) => pageOf(items, request.query));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_test' });
  for (const pageSize of [0, 201, 2.5]) await expect(collect(paginate(client, '/tools', { pageSize }))).rejects.toThrow(/pageSize must be an integer from 1 to 200/);
  await expect(collect(paginate(client, '/tools', { offset: -1 }))).rejects.toThrow(/offset must be an integer of at least 0/);
  expect(api.requests).toHaveLength(0);
});
