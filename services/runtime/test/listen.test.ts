import http from 'node:http';
import { listenOn, reachableHost } from '../src/server/listen.js';

test('a wildcard host is reached on loopback; an IPv6 literal is bracketed; a name or address stays', () => {
  expect(reachableHost('0.0.0.0')).toBe('127.0.0.1');
  expect(reachableHost('::')).toBe('127.0.0.1');
  expect(reachableHost('::1')).toBe('[::1]');
  expect(reachableHost('10.1.2.3')).toBe('10.1.2.3');
  expect(reachableHost('localhost')).toBe('localhost');
});

test.each(['127.0.0.1', '0.0.0.0', '::'])('listenOn %s on port 0 answers an address that reaches the listener', async (host) => {
  const server = http.createServer((_req, res) => res.end('here'));
  try {
    const { port, url } = await listenOn(server, 0, host);
    expect(port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(url)).text()).toBe('here');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('listenOn rejects when the port is taken', async () => {
  const first = http.createServer();
  const second = http.createServer();
  try {
    const { port } = await listenOn(first, 0, '127.0.0.1');
    await expect(listenOn(second, port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
  } finally {
    await new Promise((resolve) => first.close(resolve));
  }
});
