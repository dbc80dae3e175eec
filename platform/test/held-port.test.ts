// Ports chosen for children before they listen: never one an outgoing connection can take meanwhile,
// never one someone else holds, and free for its real listener once released.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { holdFreePort } from '../src/held-port.js';

const firstEphemeral = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

test('a held port lies below the ephemeral range, is not handed out twice, and is free once released', async () => {
  const held = await Promise.all(Array.from({ length: 20 }, () => holdFreePort('127.0.0.1')));
  try {
    const ports = held.map((h) => h.port);
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(firstEphemeral);
    }
    const first = held[0]!;
    await first.release();
    const listener = createServer();
    await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(first.port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  } finally {
    await Promise.all(held.map((h) => h.release()));
  }
});

test('while held, nobody else can listen on the port', async () => {
  const held = await holdFreePort('127.0.0.1');
  try {
    const intruder = createServer();
    await expect(new Promise<void>((resolve, reject) => intruder.once('error', reject).listen(held.port, '127.0.0.1', resolve))).rejects.toMatchObject({ code: 'EADDRINUSE' });
  } finally {
    await held.release();
  }
});
