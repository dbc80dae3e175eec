// The default Client ID Metadata Document fetcher against a real HTTP server on 127.0.0.1: it
// reaches the server only when private egress is allowed, and refuses everything but one 200 JSON answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressPolicy } from '@voice/runtime/egress';
import { guardedMetadataFetcher, MetadataUnavailable } from '../src/oauth/metadata-fetch.js';

interface Hit {
  url: string;
  accept: string | undefined;
  method: string | undefined;
}

let server: http.Server;
let base: string;
const hits: Hit[] = [];
const document = { client_id: 'https://app.example/client.json', redirect_uris: ['https://app.example/cb'] };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', accept: req.headers.accept, method: req.method });
    switch (req.url) {
      case '/client.json':
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify(document));
      case '/moved':
        res.statusCode = 302;
        res.setHeader('location', '/client.json');
        return res.end();
      case '/huge':
        return res.end(JSON.stringify({ padding: 'x'.repeat(70 * 1024) }));
      case '/html':
        return res.end('<html>not json</html>');
      case '/slow':
        return; // never answers
      default:
        res.statusCode = 404;
        return res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  hits.length = 0;
});

const open = guardedMetadataFetcher(egressPolicy({ allowPrivate: true }));
const strict = guardedMetadataFetcher(egressPolicy({ allowPrivate: false }));

async function refusal(fetch: Promise<unknown>): Promise<string> {
  try {
    await fetch;
  } catch (error) {
    expect(error).toBeInstanceOf(MetadataUnavailable);
    return (error as Error).message;
  }
  throw new Error('the fetch succeeded');
}

test('with private egress allowed it GETs the document as JSON and answers it parsed', async () => {
  expect(await open(`${base}/client.json`)).toEqual(document);
  expect(hits).toEqual([{ url: '/client.json', accept: 'application/json', method: 'GET' }]);
});

test('with private egress refused (the default) nothing reaches the loopback server', async () => {
  expect(await refusal(strict(`${base}/client.json`))).toBe('its address is not allowed');
  expect(hits).toEqual([]);
});

test('a redirect is not followed', async () => {
  expect(await refusal(open(`${base}/moved`))).toBe('it answered HTTP 302, not 200');
  expect(hits.map((h) => h.url)).toEqual(['/moved']);
});

test('anything but 200 is refused', async () => {
  expect(await refusal(open(`${base}/missing`))).toBe('it answered HTTP 404, not 200');
});

test('a document over 64 KiB is refused', async () => {
  expect(await refusal(open(`${base}/huge`))).toBe('it is larger than 64 KiB');
});

test('a body that is not JSON is refused', async () => {
  expect(await refusal(open(`${base}/html`))).toBe('it is not JSON');
});

test('a server that does not answer in time is refused', async () => {
  const impatient = guardedMetadataFetcher(egressPolicy({ allowPrivate: true }), { timeoutMs: 200 });
  expect(await refusal(impatient(`${base}/slow`))).toMatch(/within 200 ms/);
});

test('an unreachable server is refused', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const reason = await refusal(open(`http://127.0.0.1:${port}/client.json`));
  expect(reason).toBe('unreachable: the server could not be reached');
});
