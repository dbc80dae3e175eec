// Internal HTTP/2 sessions survive going idle, closing and reopening: the PING check of
// connect-node 2.1.2 hangs (or spins) when a session closes while it is out, so ours never ping.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const churn = (mode: 'internal' | 'library') =>
  new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, [join(__dirname, 'fixtures', 'session-churn.js'), mode], { timeout: 40_000, killSignal: 'SIGKILL' }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout }),
    );
    child.stdin?.end();
  });

test('200 calls across idle closes all answer with the platform\'s session settings', async () => {
  const { code, stdout } = await churn('internal');
  expect({ code, stdout }).toEqual({ code: 0, stdout: JSON.stringify({ answered: 200 }) });
}, 45_000);
