// Binding a listener (port 0 picks a free one) and the address other processes reach it at.
import type { AddressInfo, Server } from 'node:net';

/**
 * The host other processes on this machine reach a listener bound to `host` at: loopback for a
 * wildcard (every interface), an IPv6 literal bracketed for a URL.
 */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Listens on `host`:`port` and answers the bound port and its http:// base address (see reachableHost).
 * `reusePort` lets other sockets of this process listen on the same port (SO_REUSEPORT, Linux).
 */
export async function listenOn(server: Server, port: number, host: string, options: { reusePort?: boolean } = {}): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ...(options.reusePort ? { reusePort: true } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, url: `http://${reachableHost(host)}:${bound}` };
}
