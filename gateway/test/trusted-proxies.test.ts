// VOICE_TRUSTED_PROXIES and the client address it yields: what the variable accepts (everything
// express accepts too) and refuses naming itself, and req.ip through a real express app on
// loopback with the list as its `trust proxy` setting, the way buildGatewayApp sets it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ConfigError } from '@voice/runtime/config';
import { readGatewayConfig } from '../src/config.js';
import { clientAddress } from '../src/proxies/client-address.js';
import { readTrustedProxies } from '../src/proxies/trusted-proxies.js';

describe('VOICE_TRUSTED_PROXIES', () => {
  test.each([undefined, '', '   '])('unset or empty (%j) trusts nobody', (value) => {
    expect(readTrustedProxies({ VOICE_TRUSTED_PROXIES: value })).toEqual([]);
    expect(readGatewayConfig({ VOICE_TRUSTED_PROXIES: value }).trustedProxies).toEqual([]);
  });

  test.each([
    ['10.0.0.7', ['10.0.0.7']],
    ['127.0.0.1/8', ['127.0.0.1/8']],
    [' 10.0.0.0/8 , 192.168.1.0/24,203.0.113.9 ', ['10.0.0.0/8', '192.168.1.0/24', '203.0.113.9']],
    ['::1', ['::1']],
    ['fd00::/8,2001:db8::/32', ['fd00::/8', '2001:db8::/32']],
    ['::ffff:10.0.0.1', ['::ffff:10.0.0.1']],
    ['10.0.0.1/32,2001:db8::1/128', ['10.0.0.1/32', '2001:db8::1/128']],
    ['loopback', ['loopback']],
    ['loopback,linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
    ['uniquelocal, 100.64.0.0/10', ['uniquelocal', '100.64.0.0/10']],
  ])('%j is accepted, and express takes it as its trust proxy setting', (value, expected) => {
    const trusted = readTrustedProxies({ VOICE_TRUSTED_PROXIES: value });
    expect(trusted).toEqual(expected);
    expect(() => express().set('trust proxy', trusted)).not.toThrow();
  });

  test.each([
    ['proxy.internal', 'is not an IP address'],
    ['10.0.0.256', 'is not an IP address'],
    ['10.0.0', 'is not an IP address'],
    ['010.0.0.1', 'is not an IP address'],
    ['Loopback', 'is not an IP address'],
    ['private', 'is not an IP address'],
    ['fe80::1%eth0', 'is not an IP address'],
    ['10.0.0.0/8/8', 'is not an IP address'],
    ['/8', 'is not an IP address'],
    ['10.0.0.0/33', 'prefix length from 1 to 32'],
    ['10.0.0.0/0', 'prefix length from 1 to 32'],
    ['0.0.0.0/0', 'prefix length from 1 to 32'],
    ['::/0', 'prefix length from 1 to 128'],
    ['2001:db8::/129', 'prefix length from 1 to 128'],
    ['10.0.0.0/', 'prefix length from 1 to 32'],
    ['10.0.0.0/255.0.0.0', 'prefix length from 1 to 32'],
    ['10.0.0.0/+8', 'prefix length from 1 to 32'],
    ['10.0.0.1,', 'empty entry'],
    ['10.0.0.1,,10.0.0.2', 'empty entry'],
    ['10.0.0.1 10.0.0.2', 'is not an IP address'],
  ])('%j is refused at start, naming the variable', (value, problem) => {
    let error: unknown;
    try {
      readGatewayConfig({ VOICE_TRUSTED_PROXIES: value });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('VOICE_TRUSTED_PROXIES');
    expect((error as Error).message).toContain(problem);
  });
});

describe('the client address', () => {
  const app = express();
  let server: Server;
  let url: string;
  const trust = (value: string | undefined) => app.set('trust proxy', readTrustedProxies({ VOICE_TRUSTED_PROXIES: value }));

  beforeAll(async () => {
    app.get('/whoami', (req, res) => void res.json({ address: clientAddress(req) }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/whoami`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const addressFor = async (forwardedFor?: string): Promise<string> => {
    const response = await fetch(url, { headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });
    return ((await response.json()) as { address: string }).address;
  };

  test('trusting nobody: the socket address, whatever X-Forwarded-For says', async () => {
    trust(undefined);
    expect(await addressFor()).toBe('127.0.0.1');
    expect(await addressFor('203.0.113.5')).toBe('127.0.0.1');
    expect(await addressFor('198.51.100.7, 203.0.113.5')).toBe('127.0.0.1');
  });

  test('trusting loopback: the right-most hop that is not trusted; forged hops to its left change nothing', async () => {
    trust('loopback');
    expect(await addressFor()).toBe('127.0.0.1');
    expect(await addressFor('203.0.113.5')).toBe('203.0.113.5');
    expect(await addressFor('198.51.100.7, 203.0.113.5')).toBe('203.0.113.5');
    // Trusted hops right of the client are proxies in a chain: followed past, to the client.
    expect(await addressFor('198.51.100.7, 203.0.113.5, 127.0.0.9')).toBe('203.0.113.5');
    expect(await addressFor('2001:DB8::1')).toBe('2001:db8::1');
    expect(await addressFor('::ffff:203.0.113.5')).toBe('203.0.113.5');
  });

  test('a chain of trusted proxies is followed to the client', async () => {
    trust('127.0.0.1/8, 10.0.0.0/8');
    expect(await addressFor('203.0.113.5, 10.1.2.3')).toBe('203.0.113.5');
    // 192.168.0.9 is not trusted: it is the client, whatever it claims further left.
    expect(await addressFor('203.0.113.5, 192.168.0.9, 10.1.2.3')).toBe('192.168.0.9');
  });

  test('a hop that is no address (a port, a name, junk) gives the shared unknown key, never a key per value', async () => {
    trust('loopback');
    expect(await addressFor('203.0.113.5:4711')).toBe('unknown');
    expect(await addressFor('client.example')).toBe('unknown');
    expect(await addressFor(`203.0.113.5, ${'x'.repeat(4000)}`)).toBe('unknown');
  });
});
