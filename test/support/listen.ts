// The test doubles' HTTP servers: each listens on a free loopback port and closes without waiting
// for the connections its clients keep alive.
import type http from 'node:http';
import { listenOn } from '@voice/runtime/server';

/** Listens on a free port of `host` (127.0.0.1 unless a test needs every interface); the URL names 127.0.0.1 either way. */
export async function listenOnLoopback(server: http.Server, host = '127.0.0.1'): Promise<string> {
  return (await listenOn(server, 0, host)).url;
}

/** Stops the server, cutting the connections clients keep alive. */
export const closerOf = (server: http.Server) => (): Promise<void> =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
