// startService: parts close in reverse order of opening, the server first, each once; a start
// that fails closes what it had opened and rejects with the failure.
import { randomBytes } from 'node:crypto';
import { CallerSigner } from '../src/caller.js';
import { createLogger } from '../src/logger.js';
import { startConnectServer, startService } from '../src/server/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const server = () =>
  startConnectServer({ name: 'test', host: '127.0.0.1', port: 0, signer: new CallerSigner(randomBytes(32)), logger, routes: () => undefined, serviceNames: [], connectionAge: 'off' });

test('close() stops the server, then the parts in reverse order of opening, once', async () => {
  const closed: string[] = [];
  const started = await startService(async (onClose) => {
    onClose(() => void closed.push('store'));
    onClose(async () => void closed.push('jobs'));
    const running = await server();
    const close = running.close.bind(running);
    running.close = async () => {
      closed.push('server');
      await close();
    };
    return running;
  });
  await started.close();
  await started.close();
  expect(closed).toEqual(['server', 'jobs', 'store']);
});

test('a part that fails to start closes what was opened before it, and the start rejects with its failure', async () => {
  const closed: string[] = [];
  const failure = new Error('the event stream is unreachable');
  await expect(
    startService(async (onClose) => {
      onClose(() => void closed.push('store'));
      onClose(() => void closed.push('relay'));
      throw failure;
    }),
  ).rejects.toBe(failure);
  expect(closed).toEqual(['relay', 'store']);
});
