// The loopback DNS server answers node's own resolver (c-ares) the way production will ask it.
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import { startDnsServer, type DnsServer } from './support/dns-server.js';

let server: DnsServer;
let resolver: dns.promises.Resolver;

beforeEach(async () => {
  server = await startDnsServer();
  resolver = new dns.promises.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([server.address]);
});

afterEach(async () => {
  resolver.cancel();
  await server.close();
});

const joinedTxt = async (name: string) => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));

test('TXT values come back one record each', async () => {
  server.set('_voice.example.com', 'TXT', ['v=voice1 key=abc', 'second']);
  expect((await joinedTxt('_voice.example.com')).sort()).toEqual(['second', 'v=voice1 key=abc']);
});

test('names are case-insensitive and may end with a dot', async () => {
  server.set('Mixed.Example.COM.', 'TXT', ['found']);
  expect(await joinedTxt('mixed.example.com')).toEqual(['found']);
});

test('a CNAME question returns the target', async () => {
  server.set('alias.example.com', 'CNAME', ['target.example.net']);
  expect(await resolver.resolveCname('alias.example.com')).toEqual(['target.example.net']);
});

test('A records resolve', async () => {
  server.set('host.example.com', 'A', ['192.0.2.7']);
  expect(await resolver.resolve4('host.example.com')).toEqual(['192.0.2.7']);
});

test('an unknown name is ENOTFOUND', async () => {
  await expect(resolver.resolveTxt('nothing.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
});

test('a name with only TXT asked for CNAME is ENODATA', async () => {
  server.set('txt-only.example.com', 'TXT', ['x']);
  await expect(resolver.resolveCname('txt-only.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
});

test('TXT and A questions follow a CNAME to the records of its target', async () => {
  server.set('alias.example.com', 'CNAME', ['real.example.com']);
  server.set('real.example.com', 'TXT', ['behind the alias']);
  server.set('real.example.com', 'A', ['192.0.2.8']);
  expect(await joinedTxt('alias.example.com')).toEqual(['behind the alias']);
  expect(await resolver.resolve4('alias.example.com')).toEqual(['192.0.2.8']);
});

test('a CNAME to a name the server does not hold is ENOTFOUND', async () => {
  server.set('dangling.example.com', 'CNAME', ['gone.example.com']);
  await expect(resolver.resolveTxt('dangling.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
});

test('set() replaces the records of that type and remove() removes the name', async () => {
  server.set('rotating.example.com', 'TXT', ['old']);
  server.set('rotating.example.com', 'A', ['192.0.2.9']);
  expect(await joinedTxt('rotating.example.com')).toEqual(['old']);

  server.set('rotating.example.com', 'TXT', ['new']);
  expect(await joinedTxt('rotating.example.com')).toEqual(['new']);
  expect(await resolver.resolve4('rotating.example.com')).toEqual(['192.0.2.9']);

  server.remove('rotating.example.com');
  await expect(resolver.resolveTxt('rotating.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
});

test('a TXT value longer than 255 bytes comes back whole', async () => {
  const value = 'k='.padEnd(700, 'abcdef0123456789');
  server.set('long.example.com', 'TXT', [value]);
  const records = await resolver.resolveTxt('long.example.com');
  expect(records).toHaveLength(1);
  expect(records[0]?.join('')).toBe(value);
});

test('an answer too big for UDP is fetched again over TCP', async () => {
  const values = ['a', 'b', 'c'].map((letter) => letter.repeat(1500));
  server.set('huge.example.com', 'TXT', values);
  expect((await joinedTxt('huge.example.com')).sort()).toEqual(values);
  // The truncated UDP answer and the TCP retry both ask the question.
  expect(server.queries.filter((query) => query === 'huge.example.com TXT').length).toBeGreaterThanOrEqual(2);
});

test('queries records every question as "name TYPE"', async () => {
  server.set('asked.example.com', 'TXT', ['x']);
  await joinedTxt('asked.example.com');
  await resolver.resolveCname('asked.example.com').catch(() => undefined);
  expect(server.queries).toEqual(['asked.example.com TXT', 'asked.example.com CNAME']);
});

test('malformed packets are ignored and the server keeps answering', async () => {
  const [host, port] = server.address.split(':') as [string, string];
  const client = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    client.send(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x01]), Number(port), host, (error) => (error ? reject(error) : resolve())),
  );
  client.close();
  await new Promise<void>((resolve) => {
    const socket = net.connect(Number(port), host, () => socket.end(Buffer.from([0x00, 0x03, 0xff, 0xff, 0xff]), resolve));
  });

  server.set('still.example.com', 'TXT', ['alive']);
  expect(await joinedTxt('still.example.com')).toEqual(['alive']);
});

test('close() frees the UDP and TCP port', async () => {
  const port = Number(server.address.split(':')[1]);
  await server.close();

  const udp = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', resolve);
  });
  const tcp = net.createServer();
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, '127.0.0.1', resolve);
  });
  await new Promise<void>((resolve) => udp.close(() => resolve()));
  await new Promise<void>((resolve) => tcp.close(() => resolve()));

  server = await startDnsServer(); // afterEach closes it
});
