// The egress guard: the address policy, the DNS lookup check, and refusals of real requests to loopback servers.
// Non-loopback addresses are only ever given to the policy function; every request targets 127.0.0.0/8 or ::1.
import dns from 'node:dns';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { allowedAddresses, checkDestination, EgressRefused, egressPolicy, guardedLookup, guardedRequest, type EgressPolicy } from '@voice/runtime/egress';

interface Loopback {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function listen(host: string, handler: http.RequestListener = (_req, res) => res.end('ok')): Promise<Loopback> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const strict = egressPolicy({ allowPrivate: false });
const open = egressPolicy({ allowPrivate: true });
const only = (...addresses: string[]): EgressPolicy => ({ isAllowed: (address) => addresses.includes(address) });

const get = (url: string, policy: EgressPolicy) => guardedRequest({ method: 'GET', url, headers: {}, timeoutMs: 5000, policy });

describe('egressPolicy', () => {
  test.each([
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a00:1',
    '::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::192.168.0.1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    // The documentation ranges and the rest of the special-purpose registries.
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
    '192.0.0.170',
    'fec0::1',
    'feff::1',
    'fbff:ffff::1',
    '2001:db8::1',
    '3fff::1',
    '2001::1',
    '2001:2::1',
    '100::1',
    '5f00::1',
    // IPv4-mapped forms are never on the wire; mapped public addresses are refused too.
    '::ffff:192.0.2.1',
    '::ffff:c000:201',
    '::ffff:203.0.113.9',
    '::ffff:8.8.8.8',
    '64:ff9b::c000:201',
    '64:ff9b::198.51.100.7',
    '2002:c000:0201::1',
    'not-an-address',
    '',
  ])('refuses %s', (address) => {
    expect(strict.isAllowed(address)).toBe(false);
  });

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '192.0.0.9',
    '192.31.196.1',
    '192.175.48.1',
    '2001:4:112::1',
    '2001:1::1',
    '2001:20::1',
    '2620:4f:8000::1',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows %s', (address) => {
    expect(strict.isAllowed(address)).toBe(true);
  });

  test.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', 'fd00:ec2::254', '::1'])('allows %s when private is allowed', (address) => {
    expect(open.isAllowed(address)).toBe(true);
  });
});

describe("the host's own addresses", () => {
  // A public address on one of this host's interfaces would reach whatever listens on all of them.
  const onHost = egressPolicy({ allowPrivate: false, ownAddresses: () => ['8.8.4.4', '2606:4700::6810:85e5'] });

  test.each(['8.8.4.4', '2606:4700:0:0:0:0:6810:85e5', '2606:4700::6810:85e5%eth0'])('refuses %s', (address) => {
    expect(onHost.isAllowed(address)).toBe(false);
  });

  test('allows other public addresses', () => {
    expect(onHost.isAllowed('8.8.8.8')).toBe(true);
  });

  test("refuses this machine's interface addresses by default", () => {
    const own = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []).map((entry) => entry.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(strict.isAllowed(address)).toBe(false);
  });

  test('private egress allows them', () => {
    expect(egressPolicy({ allowPrivate: true, ownAddresses: () => ['8.8.4.4'] }).isAllowed('8.8.4.4')).toBe(true);
  });
});

describe('guardedLookup', () => {
  afterEach(() => jest.restoreAllMocks());

  const resolveTo = (addresses: dns.LookupAddress[]) =>
    jest.spyOn(dns, 'lookup').mockImplementation(((_host: string, _options: unknown, callback: (error: null, addresses: dns.LookupAddress[]) => void) =>
      callback(null, addresses)) as unknown as typeof dns.lookup);

  const run = (policy: EgressPolicy, host: string, all: boolean) =>
    new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
      guardedLookup(policy)(host, { all }, (error, address, family) => resolve({ error, address, family })),
    );

  test('refuses a host when any one of its addresses is not allowed', async () => {
    resolveTo([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    const { error } = await run(strict, 'mixed.example', true);
    expect(error).toBeInstanceOf(EgressRefused);
    expect(error).toMatchObject({ host: 'mixed.example', address: '10.0.0.1' });
  });

  test('gives every checked address when asked for all, the first one otherwise', async () => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ];
    resolveTo(addresses);
    expect((await run(strict, 'public.example', true)).address).toEqual(addresses);
    expect(await run(strict, 'public.example', false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  test('resolves for real and refuses localhost', async () => {
    const { error } = await run(strict, 'localhost', true);
    expect(error).toBeInstanceOf(EgressRefused);
    expect((error as EgressRefused).address).toMatch(/^(127\.|::1$)/);
  });
});

describe('allowedAddresses and checkDestination', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a literal address is its own; a private one is refused without a lookup', async () => {
    const lookup = jest.spyOn(dns, 'lookup');
    expect(await allowedAddresses('93.184.216.34', strict)).toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(allowedAddresses('::1', strict)).rejects.toMatchObject({ host: '::1', address: '::1' });
    await expect(checkDestination('http://10.0.0.1/x', strict)).rejects.toBeInstanceOf(EgressRefused);
    expect(lookup).not.toHaveBeenCalled();
  });

  test('a name is refused when any of its addresses is; one that does not resolve rejects, but passes checkDestination', async () => {
    jest.spyOn(dns, 'lookup').mockImplementation(((host: string, _options: unknown, callback: (error: Error | null, addresses: dns.LookupAddress[]) => void) =>
      host === 'mixed.example'
        ? callback(null, [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ])
        : callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), [])) as unknown as typeof dns.lookup);
    await expect(allowedAddresses('mixed.example', strict)).rejects.toMatchObject({ host: 'mixed.example', address: '10.0.0.1' });
    await expect(allowedAddresses('nowhere.example', strict)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(checkDestination('https://nowhere.example/x', strict)).resolves.toBeUndefined();
    await expect(checkDestination('https://mixed.example/x', strict)).rejects.toBeInstanceOf(EgressRefused);
  });
});

describe('guardedRequest refuses private destinations before sending anything', () => {
  let v4: Loopback;
  let v6: Loopback;
  beforeAll(async () => {
    v4 = await listen('127.0.0.1');
    v6 = await listen('::1');
  });
  afterAll(async () => {
    await v4.close();
    await v6.close();
  });
  beforeEach(() => {
    v4.hits.length = 0;
    v6.hits.length = 0;
  });

  const targets: [string, () => string, () => Loopback][] = [
    ['an IPv4 literal', () => `http://127.0.0.1:${v4.port}/`, () => v4],
    ['a name resolved by DNS (localhost)', () => `http://localhost:${v4.port}/`, () => v4],
    ['a decimal IPv4 literal', () => `http://2130706433:${v4.port}/`, () => v4],
    ['an IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.1]:${v4.port}/`, () => v4],
    ['a bracketed IPv6 literal', () => `http://[::1]:${v6.port}/`, () => v6],
  ];

  test.each(targets)('refuses %s and the server sees no request', async (_name, url, server) => {
    await expect(get(url(), strict)).rejects.toBeInstanceOf(EgressRefused);
    expect(server().hits).toEqual([]);
  });

  // The control for the test above: the same URL does reach the server, so "no request" means refused.
  test.each(targets)('reaches %s when private destinations are allowed', async (_name, url, server) => {
    const response = await get(url(), open);
    expect(response.status).toBe(200);
    expect(server().hits).toEqual(['/']);
  });
});

describe('guardedRequest checks the guard again on every redirect', () => {
  let first: Loopback;
  let second: Loopback;
  let third: Loopback;
  beforeAll(async () => {
    second = await listen('127.0.0.2');
    third = await listen('127.0.0.1');
    first = await listen('127.0.0.1', (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${second.port}/next` }).end();
    });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await third.close();
  });
  beforeEach(() => {
    for (const server of [first, second, third]) server.hits.length = 0;
  });

  test('a redirect to a refused IP literal is not followed', async () => {
    const error = await get(`http://127.0.0.1:${first.port}/`, only('127.0.0.1')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EgressRefused);
    expect(error).toMatchObject({ address: '127.0.0.2' });
    expect(first.hits).toEqual(['/']);
    expect(second.hits).toEqual([]);
  });

  test('the same redirect is followed when both addresses are allowed', async () => {
    const response = await get(`http://127.0.0.1:${first.port}/`, only('127.0.0.1', '127.0.0.2'));
    expect(response.status).toBe(200);
    expect(second.hits).toEqual(['/next']);
  });

  test('a redirect to a name resolving to a refused address is not followed', async () => {
    const redirecting = await listen('127.0.0.2', (_req, res) => {
      res.writeHead(307, { location: `http://localhost:${third.port}/` }).end();
    });
    try {
      const error = await get(`http://127.0.0.2:${redirecting.port}/`, only('127.0.0.2')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EgressRefused);
      expect(error).toMatchObject({ host: 'localhost' });
      expect((error as EgressRefused).address).toMatch(/^(127\.|::1$)/);
      expect(redirecting.hits).toEqual(['/']);
      expect(third.hits).toEqual([]);
    } finally {
      await redirecting.close();
    }
  });
});

describe('guardedRequest with keepAlive', () => {
  const post = (url: string, policy: EgressPolicy, keepAlive: boolean) =>
    guardedRequest({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000, policy, keepAlive });

  /** An HTTP/1.1 server on loopback that counts its connections; `onRequest` answers or kills each (connection number, request number on it). */
  async function countingServer(onRequest: (socket: net.Socket, connection: number, request: number) => void) {
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      const connection = ++connections;
      sockets.add(socket);
      let requests = 0;
      let pending = '';
      socket.on('data', (chunk) => {
        pending += chunk.toString('latin1');
        // Each test request is small and has a body of 2 bytes ('{}').
        while (pending.includes('\r\n\r\n{}')) {
          pending = pending.slice(pending.indexOf('\r\n\r\n{}') + 6);
          onRequest(socket, connection, ++requests);
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      connections: () => connections,
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  }
  const answer = (socket: net.Socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=30\r\n\r\nok');

  test('requests to one origin share a connection, and without keepAlive each has its own', async () => {
    const server = await countingServer((socket) => answer(socket));
    try {
      for (let i = 0; i < 3; i++) expect((await post(server.url, open, true)).status).toBe(200);
      expect(server.connections()).toBe(1);
      for (let i = 0; i < 2; i++) expect((await post(server.url, open, false)).status).toBe(200);
      expect(server.connections()).toBe(3);
    } finally {
      await server.close();
    }
  });

  test('a request on a kept connection the server drops unanswered goes again on a new one', async () => {
    // The second request on the first connection finds it gone: what a server closing an idle connection does.
    const server = await countingServer((socket, connection, request) => (connection === 1 && request === 2 ? socket.destroy() : answer(socket)));
    try {
      expect((await post(server.url, open, true)).status).toBe(200);
      expect((await post(server.url, open, true)).status).toBe(200);
      expect(server.connections()).toBe(2);
    } finally {
      await server.close();
    }
  });

  test('a kept connection serves only its own policy: another policy looks the name up and is refused', async () => {
    const server = await listen('127.0.0.1');
    try {
      const url = `http://localhost:${server.port}/`;
      const allowLoopback: EgressPolicy = { isAllowed: (address) => address === '127.0.0.1' || address === '::1' };
      expect((await post(url, allowLoopback, true)).status).toBe(200);
      await expect(post(url, strict, true)).rejects.toBeInstanceOf(EgressRefused);
      expect(server.hits).toEqual(['/']);
    } finally {
      await server.close();
    }
  });
});
