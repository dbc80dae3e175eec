// Binding a listener (port 0 picks a free one) and the address other processes reach it at.
import type { AddressInfo, Server } from 'node:net';

/** Listens on `host`:`port` and answers the bound port and its http:// base address (IPv6 hosts bracketed). */
export async function listenOn(server: Server, port: number, host: string): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}
