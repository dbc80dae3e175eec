// runApiTool and the guarded HTTP client under it, against real HTTP servers on 127.0.0.1 only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '@bufbuild/protobuf';
import { apiConfigSchema } from '@voice/contracts/tools';
import { runApiTool } from '../src/testing/api-runner.js';
import { egressPolicy } from '@voice/runtime/egress';
import { EgressRefused, guardedRequest, RequestFailed } from '@voice/runtime/egress';
import { ToolArgumentError, type TestOutcome } from '../src/testing/outcome.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface Loopback {
  base: string;
  received: Received[];
  handle: Handler;
  close(): Promise<void>;
}

const echo: Handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');

async function listen(): Promise<Loopback> {
  const loopback: Loopback = {
    base: '',
    received: [],
    handle: echo,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      loopback.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      loopback.handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  loopback.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  loopback.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return loopback;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const open = { policy: egressPolicy({ allowPrivate: true }) };
const strict = { policy: egressPolicy({ allowPrivate: false }) };
const api = (config: Record<string, unknown>) => apiConfigSchema.parse(config);
function only<K extends TestOutcome['kind']>(outcome: TestOutcome, kind: K): Extract<TestOutcome, { kind: K }> {
  expect(outcome.kind).toBe(kind);
  return outcome as Extract<TestOutcome, { kind: K }>;
}

let a: Loopback;
let b: Loopback;
beforeAll(async () => {
  a = await listen();
  b = await listen();
});
afterAll(async () => {
  await a.close();
  await b.close();
});
beforeEach(() => {
  for (const server of [a, b]) {
    server.received.length = 0;
    server.handle = echo;
  }
});

describe('runApiTool builds the request', () => {
  test('body parameters, static values and configured headers go into a JSON POST', async () => {
    const config = api({
      url: `${a.base}/orders`,
      headers: { 'X-Api-Key': 'k-123' },
      parameters: [
        { name: 'item', type: 'string', required: true },
        { name: 'quantity', type: 'integer' },
        { name: 'channel', type: 'string' },
      ],
      static_values: { channel: 'phone', source: { app: 'voice' } },
    });
    const outcome = await runApiTool(config, { item: 'pizza', quantity: 2, channel: 'web' }, open);
    expect(outcome.kind).toBe('http');
    const [request] = a.received;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-api-key']).toBe('k-123');
    // The static value wins over the argument of the same name.
    expect(JSON.parse(request?.body ?? '')).toEqual({ item: 'pizza', quantity: 2, channel: 'phone', source: { app: 'voice' } });
  });

  test('path parameters are percent-encoded into their placeholders', async () => {
    const config = api({
      method: 'PUT',
      url: `${a.base}/users/{user_id}/notes/{note}`,
      parameters: [
        { name: 'user_id', type: 'string', location: 'path', required: true },
        { name: 'note', type: 'integer', location: 'path', required: true },
      ],
    });
    await runApiTool(config, { user_id: 'a b/c?d', note: 7 }, open);
    expect(a.received[0]?.url).toBe('/users/a%20b%2Fc%3Fd/notes/7');
    expect(a.received[0]?.body).toBe('{}');
  });

  test('query parameters are appended; objects and arrays as JSON', async () => {
    const config = api({
      method: 'POST',
      url: `${a.base}/search?fixed=1`,
      parameters: [
        { name: 'q', type: 'string', location: 'query' },
        { name: 'tags', type: 'array', location: 'query' },
        { name: 'extra', type: 'boolean' },
      ],
    });
    await runApiTool(config, { q: 'x y&z', tags: ['a', 'b'], extra: true }, open);
    const url = new URL(a.received[0]?.url ?? '', a.base);
    expect([...url.searchParams]).toEqual([
      ['fixed', '1'],
      ['q', 'x y&z'],
      ['tags', '["a","b"]'],
    ]);
    expect(JSON.parse(a.received[0]?.body ?? '')).toEqual({ extra: true });
  });

  test.each(['GET', 'DELETE'])('%s sends body parameters and static values in the query, with no body', async (method) => {
    const config = api({
      method,
      url: `${a.base}/items`,
      parameters: [{ name: 'limit', type: 'integer' }],
      static_values: { view: 'short' },
    });
    await runApiTool(config, { limit: 5 }, open);
    const [request] = a.received;
    expect(request?.method).toBe(method);
    expect(request?.url).toBe('/items?limit=5&view=short');
    expect(request?.body).toBe('');
    expect(request?.headers['content-type']).toBeUndefined();
  });

  test('header parameters become headers; a configured header of the same name wins', async () => {
    const config = api({
      method: 'GET',
      url: `${a.base}/h`,
      headers: { Authorization: 'Bearer configured' },
      parameters: [
        { name: 'trace_id', type: 'string', location: 'header' },
        { name: 'authorization', type: 'string', location: 'header' },
      ],
    });
    await runApiTool(config, { trace_id: 'abc-1', authorization: 'Bearer from-model' }, open);
    expect(a.received[0]?.headers['trace_id']).toBe('abc-1');
    expect(a.received[0]?.headers['authorization']).toBe('Bearer configured');
  });

  test('the method defaults to POST', async () => {
    await runApiTool(api({ url: `${a.base}/default` }), {}, open);
    expect(a.received[0]?.method).toBe('POST');
  });
});

describe('runApiTool checks the arguments before sending anything', () => {
  const parameters = [
    { name: 's', type: 'string', required: true },
    { name: 'n', type: 'number' },
    { name: 'i', type: 'integer' },
    { name: 'b', type: 'boolean' },
    { name: 'o', type: 'object' },
    { name: 'a', type: 'array' },
    { name: 'h', type: 'string', location: 'header' },
  ];
  const config = () => api({ url: `${a.base}/checked`, parameters });

  const issues = async (args: JsonObject) => {
    const error = await runApiTool(config(), args, open).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolArgumentError);
    expect(a.received).toEqual([]);
    return (error as ToolArgumentError).issues;
  };

  test('unknown and missing arguments', async () => {
    expect(await issues({ nope: 1 })).toEqual([
      { field: 'arguments.nope', issue: 'is not a parameter of this tool' },
      { field: 'arguments.s', issue: 'is required' },
    ]);
  });

  test('arguments of the wrong JSON type', async () => {
    expect(await issues({ s: 1, n: '1', i: 1.5, b: 'true', o: [], a: {} })).toEqual([
      { field: 'arguments.s', issue: 'must be of type string' },
      { field: 'arguments.n', issue: 'must be of type number' },
      { field: 'arguments.i', issue: 'must be of type integer' },
      { field: 'arguments.b', issue: 'must be of type boolean' },
      { field: 'arguments.o', issue: 'must be of type object' },
      { field: 'arguments.a', issue: 'must be of type array' },
    ]);
    expect(await issues({ s: 'x', o: null })).toEqual([{ field: 'arguments.o', issue: 'must be of type object' }]);
  });

  test('a header argument that cannot be a header value', async () => {
    expect(await issues({ s: 'x', h: 'a\r\nX-Injected: 1' })).toEqual([{ field: 'arguments.h', issue: 'cannot be sent as an HTTP header value' }]);
  });

  test('arguments of the right types pass', async () => {
    const outcome = await runApiTool(config(), { s: 'x', n: 1.5, i: 2, b: false, o: { k: 1 }, a: [1], h: 'v' }, open);
    expect(outcome.kind).toBe('http');
    expect(a.received.map((request) => request.url)).toEqual(['/checked']);
  });
});

describe('runApiTool reports the response', () => {
  test('a JSON body is parsed and response_mapping applied', async () => {
    a.handle = (_req, res) =>
      res
        .writeHead(201, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ data: { items: [{ id: 'first' }, { id: 'second' }], count: 2, empty: null } }));
    const config = api({
      url: `${a.base}/list`,
      response_mapping: { first_id: 'data.items.0.id', second_id: '$.data.items.1.id', count: '$.data.count', missing: 'data.items.5.id', none: 'data.empty.x', proto: 'data.constructor' },
    });
    const outcome = only(await runApiTool(config, {}, open), 'http');
    expect(outcome.status).toBe(201);
    expect(outcome.body).toEqual({ data: { items: [{ id: 'first' }, { id: 'second' }], count: 2, empty: null } });
    expect(outcome.mapped).toEqual({ first_id: 'first', second_id: 'second', count: 2, missing: null, none: null, proto: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('a +json media type is JSON too', async () => {
    a.handle = (_req, res) => res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"title":"Not Found"}');
    const outcome = only(await runApiTool(api({ url: `${a.base}/p` }), {}, open), 'http');
    expect(outcome.status).toBe(404);
    expect(outcome.body).toEqual({ title: 'Not Found' });
  });

  test('a non-JSON body is returned as text and maps to null', async () => {
    a.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('{"looks":"like json"}');
    const config = api({ url: `${a.base}/t`, response_mapping: { looks: 'looks' } });
    const outcome = only(await runApiTool(config, {}, open), 'http');
    expect(outcome.body).toBe('{"looks":"like json"}');
    expect(outcome.mapped).toEqual({ looks: null });
  });

  test('a JSON content type with a body that does not parse is returned as text', async () => {
    a.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('not json');
    const outcome = only(await runApiTool(api({ url: `${a.base}/bad` }), {}, open), 'http');
    expect(outcome.body).toBe('not json');
  });

  test('a body over 64 KiB is truncated to 64 KiB of text', async () => {
    const big = JSON.stringify({ filler: 'x'.repeat(100_000) });
    a.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(big);
    const config = api({ url: `${a.base}/big`, response_mapping: { filler: 'filler' } });
    const outcome = only(await runApiTool(config, {}, open), 'http');
    expect(outcome.body).toBe(big.slice(0, 65_536));
    expect(outcome.mapped).toEqual({ filler: null });
  });
});

describe('runApiTool failures', () => {
  test('no answer within timeout_ms is a timeout failure', async () => {
    a.handle = () => undefined;
    const outcome = only(await runApiTool(api({ url: `${a.base}/slow`, timeout_ms: 200 }), {}, open), 'failure');
    expect(outcome.code).toBe('timeout');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(190);
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  test('a refused connection is an unreachable failure', async () => {
    const port = await closedPort();
    const outcome = only(await runApiTool(api({ url: `http://127.0.0.1:${port}/` }), {}, open), 'failure');
    expect(outcome.code).toBe('unreachable');
    // The address and the system's error stay in the log: a caller could scan ports with them.
    expect(outcome.message).toBe('the server could not be reached');
    expect(outcome.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });

  test('a refused destination is thrown as EgressRefused and nothing is sent', async () => {
    await expect(runApiTool(api({ url: `${a.base}/private` }), {}, strict)).rejects.toBeInstanceOf(EgressRefused);
    expect(a.received).toEqual([]);
  });
});

describe('guardedRequest redirects', () => {
  const request = (options: Partial<Parameters<typeof guardedRequest>[0]> & { url: string }) =>
    guardedRequest({ method: 'GET', headers: {}, timeoutMs: 5000, policy: open.policy, ...options });

  test('follows a chain of redirects to the final answer', async () => {
    a.handle = (req, res) => {
      if (req.url === '/one') res.writeHead(301, { location: '/two' }).end();
      else if (req.url === '/two') res.writeHead(302, { location: `${a.base}/three` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`);
    };
    const response = await request({ url: `${a.base}/one` });
    expect(response).toMatchObject({ status: 200, body: 'at /three', truncated: false, url: `${a.base}/three` });
    expect(a.received.map((r) => r.url)).toEqual(['/one', '/two', '/three']);
  });

  test.each([
    [303, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [303, 'PUT', 'GET', ''],
    [307, 'POST', 'POST', '{"k":1}'],
    [308, 'PUT', 'PUT', '{"k":1}'],
    [301, 'PUT', 'PUT', '{"k":1}'],
  ])('%i after %s continues as %s', async (status, method, nextMethod, nextBody) => {
    a.handle = (req, res) => {
      if (req.url === '/from') res.writeHead(status, { location: '/to' }).end();
      else res.end('done');
    };
    await request({ url: `${a.base}/from`, method, body: '{"k":1}', headers: { 'content-type': 'application/json' } });
    const next = a.received[1];
    expect(next?.method).toBe(nextMethod);
    expect(next?.body).toBe(nextBody);
    expect(next?.headers['content-type']).toBe(nextBody === '' ? undefined : 'application/json');
  });

  test('caller headers are kept on a same-origin redirect and dropped on a cross-origin one', async () => {
    a.handle = (req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/same' }).end();
      else res.writeHead(307, { location: `${b.base}/other` }).end();
    };
    const headers = { authorization: 'Bearer secret', 'x-api-key': 'k' };
    const response = await request({ url: `${a.base}/start`, headers });
    expect(response.status).toBe(200);
    expect(a.received[1]?.headers).toMatchObject(headers);
    expect(b.received).toHaveLength(1);
    expect(b.received[0]?.headers['authorization']).toBeUndefined();
    expect(b.received[0]?.headers['x-api-key']).toBeUndefined();
  });

  test('more than maxRedirects redirects fail as a bad response', async () => {
    a.handle = (_req, res) => res.writeHead(302, { location: '/again' }).end();
    const error = await request({ url: `${a.base}/loop`, maxRedirects: 3 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestFailed);
    expect(error).toMatchObject({ code: 'bad_response' });
    expect(a.received).toHaveLength(4);
  });

  test('a redirect to another scheme is not followed', async () => {
    a.handle = (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    await expect(request({ url: `${a.base}/file` })).rejects.toMatchObject({ code: 'bad_response' });
  });

  test("redirect: 'manual' hands the redirect back", async () => {
    a.handle = (_req, res) => res.writeHead(308, { location: '/elsewhere' }).end();
    const response = await request({ url: `${a.base}/manual`, redirect: 'manual' });
    expect(response.status).toBe(308);
    expect(response.headers['location']).toBe('/elsewhere');
    expect(a.received).toHaveLength(1);
  });

  test('the timeout covers every hop together', async () => {
    a.handle = (req, res) => {
      const answer = () => (req.url === '/slow1' ? res.writeHead(302, { location: '/slow2' }).end() : res.end('late'));
      setTimeout(answer, 300).unref();
    };
    // Each hop alone fits in the timeout; the two together do not.
    const error = await request({ url: `${a.base}/slow1`, timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestFailed);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(a.received.map((r) => r.url)).toEqual(['/slow1', '/slow2']);
  });

  test('the timeout covers reading the body', async () => {
    a.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    };
    await expect(request({ url: `${a.base}/stall`, timeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' });
  });

  test('maxBodyBytes truncates the body', async () => {
    a.handle = (_req, res) => res.end('0123456789');
    expect(await request({ url: `${a.base}/small`, maxBodyBytes: 4 })).toMatchObject({ body: '0123', truncated: true });
    expect(await request({ url: `${a.base}/small`, maxBodyBytes: 10 })).toMatchObject({ body: '0123456789', truncated: false });
  });
});
