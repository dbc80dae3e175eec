// A voice runtime's stream endpoint on 127.0.0.1 for the carrier tests: accepts Twilio Media Streams
// WebSockets, records every message of each stream, and lets the test hang a stream up.
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ReceivedStream {
  messages: Record<string, unknown>[];
  /** The `start` message's customParameters, once it arrived. */
  customParameters?: Record<string, string>;
  closed: boolean;
  /** The runtime hangs up: closes the socket. */
  hangUp(): void;
}

export interface MediaReceiver {
  url: string;
  streams: ReceivedStream[];
  close(): Promise<void>;
}

export async function startMediaReceiver(): Promise<MediaReceiver> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/media' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const streams: ReceivedStream[] = [];
  server.on('connection', (socket: WebSocket) => {
    const stream: ReceivedStream = { messages: [], closed: false, hangUp: () => socket.close(1000, 'assistant ended the call') };
    streams.push(stream);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      stream.messages.push(message);
      if (message.event === 'start') stream.customParameters = (message.start as { customParameters: Record<string, string> }).customParameters;
    });
    socket.on('close', () => {
      stream.closed = true;
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media`,
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
