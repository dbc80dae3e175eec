// How a service starts its parts in order and stops them in reverse: when a part fails to start,
// what was opened before it is closed; the started service's close() stops the server first, then
// every part, each once.
import type { RunningServer, StartedService } from './connect-server.js';

/** Registers how to stop a part just opened. */
export type OnClose = (close: () => Promise<void> | void) => void;

/** Runs `start`, which opens the parts (registering each one's close) and answers the started server. */
export async function startService(start: (onClose: OnClose) => Promise<RunningServer>): Promise<StartedService> {
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse().splice(0)) await close();
  };
  try {
    const server = await start((close) => void closers.push(close));
    closers.push(() => server.close());
    return { server, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
