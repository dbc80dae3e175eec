// The runtime's HTTP server: the media stream endpoint (WebSocket upgrades on /media, as
// VOICE_MEDIA_URL names it) and GET /healthz for supervisors; anything else is 404.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { acceptMediaStream, type MediaSessionDeps } from './media/media-session.js';

export const mediaPath = '/media';
/** Twilio Media Streams messages are small JSON lines; nothing larger is accepted. */
const maxMessageBytes = 64 * 1024;

export interface RunningMediaServer {
  /** ws://host:port/media */
  mediaUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startMediaServer(options: { host: string; port: number } & MediaSessionDeps): Promise<RunningMediaServer> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  const sockets = new WebSocketServer({ server, path: mediaPath, maxPayload: maxMessageBytes });
  sockets.on('connection', (socket) => acceptMediaStream(socket, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    mediaUrl: `ws://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}${mediaPath}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Calls still streaming are hung up: their conversations end as the caller's hang-up.
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
