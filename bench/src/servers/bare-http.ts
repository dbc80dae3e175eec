// Child process: a bare node:http server answering every request with the tool GET's JSON (the physical limit).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, responseBodyFromEnv } from './ready.js';

const body = responseBodyFromEnv();

const server = createServer({ keepAliveTimeout: 65_000 }, (_req, res) => {
  // Serialised per request, as any real handler does.
  const json = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
});

server.listen(0, '127.0.0.1', () => {
  announceReady(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => process.exit(0));
