// The runtime's HTTP server: the media stream endpoint (WebSocket upgrades on /media, as
// VOICE_MEDIA_URL names it) and GET /healthz for supervisors; anything else is 404.
import http from 'node:http';
import { listenOn } from '@voice/runtime/server';
import { WebSocketServer } from 'ws';
import { acceptMediaStream, type MediaSessionDeps } from './media/media-session.js';

export const mediaPath = '/media';

/** The stream endpoint's ws:// address on the runtime whose HTTP base address is `baseUrl`. */
export const mediaUrlOf = (baseUrl: string): string => `${baseUrl.replace(/^http:/, 'ws:')}${mediaPath}`;
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
  const { port, url } = await listenOn(server, options.port, options.host);
  return {
    mediaUrl: mediaUrlOf(url),
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
