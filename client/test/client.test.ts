// createVoiceClient against a loopback API: the base URL and credential it sends, and failures
// surfaced as typed VoiceApiErrors.
import { randomUUID } from 'node:crypto';
import { createVoiceClient, orThrow, VoiceApiError } from '../src/index.js';
import { startLoopbackApi, type Answer, type LoopbackApi } from './support/loopback-api.js';

let api: LoopbackApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const me = { data: { principal: { type: 'service_account', id: randomUUID(), name: 'ci' }, workspace: { id: randomUUID() }, scopes: null } };

test('sends each request to the base URL with the bearer credential and the given headers', async () => {
  api = await startLoopbackApi(() => ({ status: 200, body: me }));
  const client = createVoiceClient({ baseUrl: `${api.baseUrl}/`, credential: 'svc_fixed', headers: { 'User-Agent': 'voice-client-test' } });
  const { data } = await client.GET('/me');
  expect(data).toEqual(me);
  expect(api.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/me', headers: { authorization: 'Bearer svc_fixed', 'user-agent': 'voice-client-test' } });
});

test('asks a credential function again for every request, so a refreshed token is used at once', async () => {
  api = await startLoopbackApi(() => ({ status: 200, body: me }));
  const tokens = ['svc_at_first', 'svc_at_second'];
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: async () => tokens.shift()! });
  await client.GET('/me');
  await client.GET('/me');
  expect(api.requests.map((request) => request.headers.authorization)).toEqual(['Bearer svc_at_first', 'Bearer svc_at_second']);
});

test('sends path parameters and JSON bodies where the operation puts them', async () => {
  const id = randomUUID();
  api = await startLoopbackApi(() => ({ status: 200, body: { data: { id, deleted: true } } }));
  const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_fixed' });
  await client.PATCH('/tools/{id}', { params: { path: { id } }, body: { expected_revision: 3, is_active: false } });
  expect(api.requests[0]).toMatchObject({ method: 'PATCH', path: `/api/v1/tools/${id}`, headers: { 'content-type': 'application/json' } });
  expect(JSON.parse(api.requests[0]!.body)).toEqual({ expected_revision: 3, is_active: false });
});

test('refuses a base URL without the version prefix or of another scheme, and an empty credential', () => {
  expect(() => createVoiceClient({ baseUrl: 'https://voice.example.com', credential: 'svc_x' })).toThrow(/version prefix/);
  expect(() => createVoiceClient({ baseUrl: 'ftp://voice.example.com/api/v1', credential: 'svc_x' })).toThrow(/http\(s\) URL/);
  expect(() => createVoiceClient({ baseUrl: 'not a url', credential: 'svc_x' })).toThrow(/not a URL/);
  expect(() => createVoiceClient({ baseUrl: 'https://voice.example.com/api/v1', credential: '' })).toThrow(/credential/);
});

describe('errors', () => {
  const invalid: Answer = {
    status: 400,
    body: { error: { code: 'invalid_request', message: 'name: is required', details: [{ field: 'name', issue: 'is required' }] } },
  };

  test('the error side of a call is the typed envelope; orThrow throws it as a VoiceApiError', async () => {
    api = await startLoopbackApi(() => invalid);
    const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_fixed' });
    const { error, response } = await client.POST('/tools', { body: { name: '', type: 'api' } });
    expect(response.status).toBe(400);
    expect(error?.error.code).toBe('invalid_request');
    const thrown = await orThrow(client.POST('/tools', { body: { name: '', type: 'api' } })).catch((caught: unknown) => caught);
    expect(thrown).toBeInstanceOf(VoiceApiError);
    expect(thrown).toMatchObject({
      name: 'VoiceApiError',
      status: 400,
      code: 'invalid_request',
      message: 'name: is required',
      details: [{ field: 'name', issue: 'is required' }],
      requestId: 'req-2',
      retryAfterSeconds: undefined,
    });
  });

  test('an answer without the envelope (a proxy page) is a VoiceApiError with its status and no code', async () => {
    api = await startLoopbackApi(() => ({ status: 502, body: '<html>Bad Gateway</html>' }));
    const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_fixed' });
    const thrown = await orThrow(client.GET('/me')).catch((caught: unknown) => caught);
    expect(thrown).toBeInstanceOf(VoiceApiError);
    expect(thrown).toMatchObject({ status: 502, code: undefined, details: [], message: 'the API answered 502 without an error envelope' });
  });

  test('orThrow answers the data of a success', async () => {
    api = await startLoopbackApi(() => ({ status: 200, body: me }));
    const client = createVoiceClient({ baseUrl: api.baseUrl, credential: 'svc_fixed' });
    const answer = await orThrow(client.GET('/me'));
    expect(answer.data.principal.type).toBe('service_account');
  });
});
