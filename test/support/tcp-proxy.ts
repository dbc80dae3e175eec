// A loopback TCP forwarder to a real server (NATS, MongoDB) that a test can silence: the server
// stays up for everyone else, while to the process under test its dependency is gone the way a
// partitioned or vanished host is gone: connections stay open but nothing answers any more, and
// new ones are accepted and never answered (no reset to fail fast on).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** From now on nothing is forwarded either way. */
  silence(): void;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (silent) return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!silent) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    silence: () => {
      silent = true;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
