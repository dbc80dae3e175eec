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

/**
 * How many sockets listen on the runtime's port. The event loop accepts one connection per listening
 * socket and turn; in the single process the runtime shares its loop with the API, one of whose turns
 * can take in a dozen POST /calls, each answered call opening a stream. With one socket the streams
 * waited in the kernel's accept queue (seconds under load) until it overflowed and carriers' opening
 * handshakes timed out (10 s) while the loop was busy but not blocked. Sockets sharing the port
 * (SO_REUSEPORT, which Linux spreads connections over) accept that many per turn.
 */
const listenersPerPort = process.platform === 'linux' ? 8 : 1;

export interface RunningMediaServer {
  /** ws://host:port/media */
  mediaUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startMediaServer(options: { host: string; port: number } & MediaSessionDeps): Promise<RunningMediaServer> {
  const sockets = new WebSocketServer({ noServer: true, path: mediaPath, maxPayload: maxMessageBytes });
  sockets.on('connection', (socket) => acceptMediaStream(socket, options));
  const servers: http.Server[] = [];
  const closeAll = () =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  const listener = () => {
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/healthz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    // An upgrade on another path is refused (400) by handleUpgrade itself.
    server.on('upgrade', (req, socket, head) => sockets.handleUpgrade(req, socket, head, (stream) => sockets.emit('connection', stream, req)));
    servers.push(server);
    return server;
  };
  const reusePort = listenersPerPort > 1;
  try {
    const { port, url } = await listenOn(listener(), options.port, options.host, { reusePort });
    for (let i = 1; i < listenersPerPort; i++) await listenOn(listener(), port, options.host, { reusePort });
    return {
      mediaUrl: mediaUrlOf(url),
      port,
      close: async () => {
        // Calls still streaming are hung up: their conversations end as the caller's hang-up.
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
