// SIP trunks through the gateway: CRUD with the password write-only and masked, numbers routed
// through one trunk at most, deletion refused while numbers use a trunk, and the OPTIONS check
// against a SIP responder on loopback (UDP and TCP), with the egress guard refusing loopback unless
// the platform allows private addresses.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectError, fieldsOf } from './support/api-client.js';
import { startTestPlatform, type TestPlatform } from './support/platform.js';
import { startSipResponder, type SipResponder } from './support/sip-responder.js';
import { buySmsNumber } from './support/telephony.js';

const password = 'trunk-Secret-7f3a9c';
const newPassword = 'trunk-Secret-2b8e41';
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const uuid = '6f1c2b1e-8d4a-4c6e-9a51-3f0e2d7b9c10';

const trunkBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Office PBX',
  address: 'sip:pbx.customer.example:5070',
  transport: 'udp',
  direction: 'both',
  username: 'office',
  password,
  ...overrides,
});

describe('with private egress allowed (VOICE_EGRESS_ALLOW_PRIVATE=true)', () => {
  let platform: TestPlatform;
  let workspace: { id: string; key: string };

  beforeAll(async () => {
    platform = await startTestPlatform({ VOICE_EGRESS_ALLOW_PRIVATE: 'true', VOICE_SIP_CHECK_TIMEOUT_MS: '1500', LOG_LEVEL: 'info' });
    workspace = await platform.workspace();
    await platform.fund(workspace.id, '50');
  });
  afterAll(async () => {
    expect(platform.logs().length).toBeGreaterThan(0);
    for (const secret of [password, newPassword]) {
      expect(platform.api.transcript.filter((text) => text.includes(secret))).toEqual([]);
      expect(platform.logs().filter((line) => line.includes(secret))).toEqual([]);
    }
    await platform.close();
  });

  const buyNumber = async () => (await buySmsNumber(platform.api, workspace.key, { enable: false })).id;

  test('a trunk is created with its numbers, the password only masked, and read back the same way', async () => {
    const numbers = [await buyNumber(), await buyNumber()];
    const created = await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: numbers }));
    expect(created.status).toBe(201);
    const expected = {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Office PBX',
      address: 'sip:pbx.customer.example:5070',
      transport: 'udp',
      direction: 'both',
      authentication: { username: 'office', password: '•••' },
      number_ids: numbers,
      created_at: expect.stringMatching(iso),
      updated_at: expect.stringMatching(iso),
    };
    expect(created.body.data).toEqual(expected);
    const id = created.body.data.id;
    expect((await platform.api.get(`/sip-trunks/${id}`, workspace.key)).body.data).toEqual(created.body.data);
    const listed = await platform.api.get('/sip-trunks?limit=200', workspace.key);
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((trunk: { id: string }) => trunk.id === id)).toEqual(created.body.data);

    const plain = await platform.api.post('/sip-trunks', workspace.key, { name: 'Carrier', address: '203.0.113.7' });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ transport: 'udp', direction: 'both', authentication: null, number_ids: [] });
  });

  test('bad bodies are 400s naming the field, and nothing is created', async () => {
    const { key } = await platform.workspace();
    const cases: [Record<string, unknown>, string][] = [
      [trunkBody({ address: 'sip:user@pbx.example' }), 'address'],
      [trunkBody({ address: 'pbx.example:70000' }), 'address'],
      [trunkBody({ address: 'http://pbx.example' }), 'address'],
      [trunkBody({ transport: 'sctp' }), 'transport'],
      [trunkBody({ address: 'sips:pbx.example', transport: 'tcp' }), 'transport'],
      [trunkBody({ direction: 'sideways' }), 'direction'],
      [trunkBody({ username: undefined }), 'username'],
      [trunkBody({ password: undefined }), 'password'],
      [trunkBody({ password: '•••' }), 'password'],
      [trunkBody({ name: '' }), 'name'],
      [trunkBody({ name: 'x'.repeat(101) }), 'name'],
      [trunkBody({ number_ids: [uuid, uuid] }), 'number_ids'],
      [trunkBody({ number_ids: ['not-a-uuid'] }), 'number_ids.0'],
      [trunkBody({ secret: 'x' }), 'secret'],
    ];
    for (const [body, field] of cases) {
      const response = await platform.api.post('/sip-trunks', key, body);
      expectError(response, 400, 'invalid_request');
      expect(fieldsOf(response)).toContain(field);
    }
    expect((await platform.api.get('/sip-trunks', key)).body.meta.pagination.total).toBe(0);
  });

  test('scopes: sip_trunks:read reads, sip_trunks:write writes, phone number scopes do neither', async () => {
    const created = (await platform.api.post('/sip-trunks', workspace.key, trunkBody())).body.data;
    const reader = await platform.key(workspace.id, ['sip_trunks:read']);
    const numbersOnly = await platform.key(workspace.id, ['phone_numbers:write']);
    expect((await platform.api.get(`/sip-trunks/${created.id}`, reader)).status).toBe(200);
    expectError(await platform.api.post('/sip-trunks', reader, trunkBody()), 403, 'forbidden');
    expectError(await platform.api.delete(`/sip-trunks/${created.id}`, reader), 403, 'forbidden');
    expectError(await platform.api.post(`/sip-trunks/${created.id}/check`, reader, {}), 403, 'forbidden');
    expectError(await platform.api.get('/sip-trunks', numbersOnly), 403, 'forbidden');
    const writer = await platform.key(workspace.id, ['sip_trunks:write']);
    expect((await platform.api.get(`/sip-trunks/${created.id}`, writer)).status).toBe(200);
    expect((await platform.api.delete(`/sip-trunks/${created.id}`, writer)).status).toBe(200);
  });

  test('another workspace’s trunks and numbers are not found; ids that are not UUIDs neither', async () => {
    const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody())).body.data;
    const number = await buyNumber();
    const other = await platform.workspace();
    for (const path of [`/sip-trunks/${trunk.id}`, '/sip-trunks/nope']) {
      expectError(await platform.api.get(path, other.key), 404, 'not_found');
      expectError(await platform.api.patch(path, other.key, { name: 'Mine' }), 404, 'not_found');
      expectError(await platform.api.post(`${path}/check`, other.key, {}), 404, 'not_found');
      expectError(await platform.api.delete(path, other.key), 404, 'not_found');
    }
    expectError(await platform.api.post('/sip-trunks', other.key, trunkBody({ number_ids: [number] })), 404, 'not_found');
    expect((await platform.api.get('/sip-trunks', other.key)).body.meta.pagination.total).toBe(0);
    expect((await platform.api.get(`/sip-trunks/${trunk.id}`, workspace.key)).body.data.name).toBe('Office PBX');
  });

  test('a trunk with numbers routed through it cannot be deleted until they leave it', async () => {
    const number = await buyNumber();
    const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [number] }))).body.data;
    const refused = await platform.api.delete(`/sip-trunks/${trunk.id}`, workspace.key);
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.message).toContain('numbers are routed through');
    expect((await platform.api.get(`/sip-trunks/${trunk.id}`, workspace.key)).body.data.number_ids).toEqual([number]);

    const emptied = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { number_ids: [] });
    expect(emptied.status).toBe(200);
    expect(emptied.body.data.number_ids).toEqual([]);
    expect((await platform.api.delete(`/sip-trunks/${trunk.id}`, workspace.key)).body).toEqual({ data: { id: trunk.id, deleted: true } });
    expectError(await platform.api.get(`/sip-trunks/${trunk.id}`, workspace.key), 404, 'not_found');
  });

  test('a released number leaves its trunk', async () => {
    const number = await buyNumber();
    const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [number] }))).body.data;
    expect((await platform.api.delete(`/phone-numbers/${number}`, workspace.key)).status).toBe(200);
    expect((await platform.api.get(`/sip-trunks/${trunk.id}`, workspace.key)).body.data.number_ids).toEqual([]);
    expect((await platform.api.delete(`/sip-trunks/${trunk.id}`, workspace.key)).status).toBe(200);
  });

  test('a number goes through one trunk at most: a second trunk is 409, also when two race for it', async () => {
    const number = await buyNumber();
    const first = (await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [number] }))).body.data;
    const second = await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [number] }));
    expectError(second, 409, 'conflict');
    expect(second.body.error.message).toContain(number);
    const other = (await platform.api.post('/sip-trunks', workspace.key, trunkBody())).body.data;
    expectError(await platform.api.patch(`/sip-trunks/${other.id}`, workspace.key, { number_ids: [number] }), 409, 'conflict');
    expect((await platform.api.get(`/sip-trunks/${other.id}`, workspace.key)).body.data.number_ids).toEqual([]);

    const contested = await buyNumber();
    const racing = await Promise.all([1, 2, 3].map(() => platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [contested] }))));
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409, 409]);
    const trunks = (await platform.api.get('/sip-trunks?limit=200', workspace.key)).body.data as { number_ids: string[] }[];
    expect(trunks.filter((trunk) => trunk.number_ids.includes(contested))).toHaveLength(1);
    expect(trunks.filter((trunk) => trunk.number_ids.includes(number))).toEqual([expect.objectContaining({ id: first.id })]);
  });

  test('PATCH changes what is sent: the mask keeps the password, a new one replaces it, an empty username removes both', async () => {
    const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody())).body.data;
    const renamed = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { name: 'Branch PBX', transport: 'tcp', password: '•••' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Branch PBX', transport: 'tcp', authentication: { username: 'office', password: '•••' } });
    const changed = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { username: 'branch', password: newPassword });
    expect(changed.body.data.authentication).toEqual({ username: 'branch', password: '•••' });
    // A password alone replaces the stored one under the user name the trunk has.
    const rotated = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { password });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.authentication).toEqual({ username: 'branch', password: '•••' });
    expectError(await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { address: 'sips:pbx.customer.example' }), 400, 'invalid_request');
    const open = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { username: '' });
    expect(open.body.data.authentication).toBeNull();
    const noPassword = await platform.api.patch(`/sip-trunks/${trunk.id}`, workspace.key, { username: 'again' });
    expectError(noPassword, 400, 'invalid_request');
    expect(fieldsOf(noPassword)).toEqual(['password']);
  });

  test('bad PATCH bodies and check bodies are 400s naming the field, and the trunk stays as it was', async () => {
    const number = await buyNumber();
    const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody({ number_ids: [number] }))).body.data;
    const open = (await platform.api.post('/sip-trunks', workspace.key, { name: 'Open', address: 'pbx.customer.example' })).body.data;
    const cases: [string, Record<string, unknown>, string][] = [
      [trunk.id, { name: '' }, 'name'],
      [trunk.id, { address: 'sip:user@pbx.example' }, 'address'],
      [trunk.id, { transport: 'sctp' }, 'transport'],
      [trunk.id, { direction: 'sideways' }, 'direction'],
      [trunk.id, { username: 'has space' }, 'username'],
      [trunk.id, { number_ids: ['not-a-uuid'] }, 'number_ids.0'],
      [trunk.id, { number_ids: [number, number] }, 'number_ids'],
      [trunk.id, { address: 'sips:pbx.customer.example', transport: 'udp' }, 'transport'],
      [trunk.id, { secret: 'x' }, 'secret'],
      // The mask keeps a stored password; an open trunk has none to keep, and a password needs a user name.
      [open.id, { password: '•••', username: 'office' }, 'password'],
      [open.id, { password: newPassword }, 'username'],
    ];
    for (const [id, body, field] of cases) {
      const response = await platform.api.patch(`/sip-trunks/${id}`, workspace.key, body);
      expectError(response, 400, 'invalid_request');
      expect(fieldsOf(response)).toContain(field);
    }
    const check = await platform.api.post(`/sip-trunks/${trunk.id}/check`, workspace.key, { timeout_ms: 100 });
    expectError(check, 400, 'invalid_request');
    expect(fieldsOf(check)).toEqual(['timeout_ms']);
    expect((await platform.api.get(`/sip-trunks/${trunk.id}`, workspace.key)).body.data).toEqual(trunk);
    expect((await platform.api.get(`/sip-trunks/${open.id}`, workspace.key)).body.data).toEqual(open);
  });

  test('a workspace holds at most 50 trunks', async () => {
    const { key } = await platform.workspace();
    for (let made = 0; made < 50; made++) expect((await platform.api.post('/sip-trunks', key, { name: `t${made}`, address: 'pbx.customer.example' })).status).toBe(201);
    const refused = await platform.api.post('/sip-trunks', key, { name: 'one more', address: 'pbx.customer.example' });
    expectError(refused, 409, 'conflict');
    expect((await platform.api.get('/sip-trunks', key)).body.meta.pagination.total).toBe(50);
  });

  test('MCP: the telephony toolset has the SIP trunk tools, answering as REST does', async () => {
    const pro = await platform.workspace({ plan: 'pro' });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.running.url}/mcp?toolsets=telephony`), { requestInit: { headers: { authorization: `Bearer ${pro.key}` } } }));
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'assign_phone_number', 'buy_phone_number', 'create_sip_trunk', 'delete_sip_trunk', 'get_sip_trunk', 'list_phone_numbers', 'list_sip_trunks',
        'release_phone_number', 'search_phone_numbers', 'send_sms',
      ].sort(),
    );
    type Answer = { isError?: boolean; structuredContent?: any; content: { text?: string }[] };
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Answer;
    const created = await call('create_sip_trunk', trunkBody());
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.data.id;
    expect(created.structuredContent.data.authentication).toEqual({ username: 'office', password: '•••' });
    expect((await call('get_sip_trunk', { id })).structuredContent).toEqual((await platform.api.get(`/sip-trunks/${id}`, pro.key)).body);
    expect((await call('list_sip_trunks', {})).structuredContent).toEqual((await platform.api.get('/sip-trunks', pro.key)).body);
    const invalid = await call('create_sip_trunk', trunkBody({ transport: 'carrier-pigeon' }));
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(invalid.content[0]!.text!).error.code).toBe('invalid_request');
    expect((await call('delete_sip_trunk', { id })).structuredContent).toEqual({ data: { id, deleted: true } });
    expect(JSON.stringify(created)).not.toContain(password);
    await client.close();
  });

  describe('the OPTIONS check', () => {
    const responders: SipResponder[] = [];
    afterAll(async () => {
      await Promise.all(responders.map((responder) => responder.close()));
    });
    const responder = async (behaviour: Parameters<typeof startSipResponder>[0]) => {
      const started = await startSipResponder(behaviour);
      responders.push(started);
      return started;
    };
    const check = async (address: string, transport: string) => {
      const trunk = (await platform.api.post('/sip-trunks', workspace.key, trunkBody({ address, transport }))).body.data;
      const response = await platform.api.post(`/sip-trunks/${trunk.id}/check`, workspace.key, {});
      expect(response.status).toBe(200);
      return response.body.data;
    };

    test('over UDP a 200 OK is reachable, with its reason phrase and round trip; the request is a well-formed OPTIONS', async () => {
      const peer = await responder({ answer: { status: 200, reason: 'OK' } });
      expect(await check(`sip:127.0.0.1:${peer.port}`, 'udp')).toEqual({ reachable: true, status_code: 200, reason_phrase: 'OK', round_trip_ms: expect.any(Number), failure: null });
      expect(peer.received).toHaveLength(1);
      const [request] = peer.received;
      expect(request!.transport).toBe('udp');
      expect(request!.requestLine).toBe(`OPTIONS sip:127.0.0.1:${peer.port} SIP/2.0`);
      expect(request!.headers.via).toMatch(/^SIP\/2\.0\/UDP [^;]+;branch=z9hG4bK[0-9a-f]+;rport$/);
      expect(request!.headers['max-forwards']).toBe('70');
      expect(request!.headers.to).toBe(`<sip:127.0.0.1:${peer.port}>`);
      expect(JSON.stringify(request!.headers)).not.toContain(password);
    });

    test('over TCP the answer after a provisional one counts: a 503 is reachable with its status', async () => {
      const peer = await responder({ provisional: true, answer: { status: 503, reason: 'Service Unavailable' } });
      expect(await check(`127.0.0.1:${peer.port}`, 'tcp')).toEqual({
        reachable: true,
        status_code: 503,
        reason_phrase: 'Service Unavailable',
        round_trip_ms: expect.any(Number),
        failure: null,
      });
      expect(peer.received.map((request) => [request.transport, request.requestLine])).toEqual([['tcp', `OPTIONS sip:127.0.0.1:${peer.port};transport=tcp SIP/2.0`]]);
    });

    test('over UDP a lost request is sent again, and a 401 challenge is an answer', async () => {
      const peer = await responder({ dropFirst: 1, answer: { status: 401, reason: 'Unauthorized' } });
      expect(await check(`127.0.0.1:${peer.port}`, 'udp')).toMatchObject({ reachable: true, status_code: 401, reason_phrase: 'Unauthorized' });
      expect(peer.received.length).toBeGreaterThanOrEqual(2);
      expect(new Set(peer.received.map((request) => request.headers['call-id'])).size).toBe(1);
    });

    test('a Digest challenge is answered once with the trunk’s credentials: accepted is 200, refused is the second challenge', async () => {
      const peer = await responder({ digest: { username: 'office', password }, answer: { status: 200, reason: 'OK' } });
      expect(await check(`127.0.0.1:${peer.port}`, 'udp')).toMatchObject({ reachable: true, status_code: 200, reason_phrase: 'OK' });
      expect(peer.received.map((request) => request.headers.cseq)).toEqual(['1 OPTIONS', '2 OPTIONS']);
      const [first, second] = peer.received;
      expect(second!.headers['call-id']).toBe(first!.headers['call-id']);
      expect(second!.headers.via).not.toBe(first!.headers.via);
      expect(second!.headers.authorization).toMatch(/^Digest username="office", realm="responder\.test", .*response="[0-9a-f]{32}"/);
      expect(JSON.stringify(peer.received)).not.toContain(password);

      const proxy = await responder({ digest: { username: 'office', password: 'another-password', proxy: true }, answer: { status: 200, reason: 'OK' } });
      expect(await check(`127.0.0.1:${proxy.port}`, 'tcp')).toMatchObject({ reachable: true, status_code: 407, reason_phrase: 'Proxy Authentication Required' });
      expect(proxy.received).toHaveLength(2);
      expect(proxy.received[1]!.headers['proxy-authorization']).toMatch(/^Digest username="office"/);

      const open = await responder({ digest: { username: 'office', password }, answer: { status: 200, reason: 'OK' } });
      const trunk = (await platform.api.post('/sip-trunks', workspace.key, { name: 'No auth', address: `127.0.0.1:${open.port}` })).body.data;
      const unauthenticated = await platform.api.post(`/sip-trunks/${trunk.id}/check`, workspace.key, {});
      expect(unauthenticated.body.data).toMatchObject({ reachable: true, status_code: 401 });
      expect(open.received).toHaveLength(1);
    });

    test('a trunk that never answers times out; a closed TCP port is unreachable', async () => {
      const silent = await responder({});
      expect(await check(`127.0.0.1:${silent.port}`, 'udp')).toEqual({
        reachable: false,
        status_code: null,
        reason_phrase: null,
        round_trip_ms: null,
        failure: { code: 'timeout', message: 'the server did not answer in time' },
      });
      expect(await check(`127.0.0.1:${silent.port}`, 'tcp')).toMatchObject({ reachable: false, failure: { code: 'timeout' } });
      const closed = await startSipResponder({});
      await closed.close();
      expect(await check(`127.0.0.1:${closed.port}`, 'tcp')).toMatchObject({ reachable: false, failure: { code: 'unreachable' } });
    });

    test('a name that does not resolve is a dns_error', async () => {
      expect(await check('pbx.invalid', 'udp')).toMatchObject({ reachable: false, failure: { code: 'dns_error' } });
    });
  });
});

describe('with the default egress guard', () => {
  let platform: TestPlatform;
  let peer: SipResponder;

  beforeAll(async () => {
    platform = await startTestPlatform();
    peer = await startSipResponder({ answer: { status: 200, reason: 'OK' } });
  });
  afterAll(async () => {
    await Promise.all([platform.close(), peer.close()]);
  });

  test('a trunk on a loopback or private address is refused with 403 destination_forbidden and nothing is sent', async () => {
    const { key } = await platform.workspace();
    for (const address of [`sip:127.0.0.1:${peer.port}`, `[::1]:${peer.port}`, '10.0.0.8', `localhost:${peer.port}`]) {
      const trunk = (await platform.api.post('/sip-trunks', key, trunkBody({ address }))).body.data;
      const refused = await platform.api.post(`/sip-trunks/${trunk.id}/check`, key, {});
      expectError(refused, 403, 'destination_forbidden');
      expect(refused.body.error.message).not.toMatch(/127\.0\.0\.1|::1|10\.0\.0\.8/);
    }
    expect(peer.received).toEqual([]);
  });
});
