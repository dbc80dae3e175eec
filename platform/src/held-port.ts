// A free port chosen now and held by a listener of ours until released: whoever must know an address
// before its server listens (a gateway's public URL, a restarted child's callers) learns it, and no
// other listener binding port 0 meanwhile can be given the same port.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

export interface HeldPort {
  port: number;
  /** Frees the port for its real listener; idempotent. */
  release(): Promise<void>;
}

/** Where ports are picked: below the kernel's ephemeral range (`firstEphemeralPort`), above the well-known and most registered ones. */
const pickedRange = { low: 10_000, attempts: 50 };

export async function holdFreePort(host: string): Promise<HeldPort> {
  const server = (await holdOutsideEphemeralRange(host)) ?? (await listen(host, 0));
  server.unref();
  let released: Promise<void> | undefined;
  return {
    port: (server.address() as { port: number }).port,
    release: () => (released ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}

/**
 * Between release and its child's listen, a port from the ephemeral range can be taken by any outgoing
 * connection on the machine (its local port), and the child then fails with EADDRINUSE; a port below
 * that range is only ever taken by someone listening on it on purpose.
 */
async function holdOutsideEphemeralRange(host: string): Promise<Server | undefined> {
  const high = firstEphemeralPort() - 1;
  if (high <= pickedRange.low) return undefined;
  for (let attempt = 0; attempt < pickedRange.attempts; attempt++) {
    const port = pickedRange.low + Math.floor(Math.random() * (high - pickedRange.low + 1));
    const server = await listen(host, port).catch(() => undefined);
    if (server) return server;
  }
  return undefined;
}

/** Where the kernel's range for outgoing connections' local ports starts (Linux); elsewhere the IANA dynamic range's start. */
function firstEphemeralPort(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // Not Linux: the IANA range below.
  }
  return 49_152;
}

function listen(host: string, port: number): Promise<Server> {
  const server = createServer();
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject).listen({ host, port, exclusive: true }, () => resolve(server));
  });
}
