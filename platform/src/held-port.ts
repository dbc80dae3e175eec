// A free port chosen now and held by a listener of ours until released: whoever must know an address
// before its server listens (a gateway's public URL, a restarted child's callers) learns it, and no
// other listener binding port 0 meanwhile can be given the same port.
import { createServer } from 'node:net';

export interface HeldPort {
  port: number;
  /** Frees the port for its real listener; idempotent. */
  release(): Promise<void>;
}

export async function holdFreePort(host: string): Promise<HeldPort> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  server.unref();
  let released: Promise<void> | undefined;
  return {
    port: (server.address() as { port: number }).port,
    release: () => (released ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}
