// Starts each server under test as its own child process, waits for its ready line, and kills
// every child it started: on stop(), on the bench's exit, and on SIGINT/SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildServer {
  name: string;
  pid: number;
  url: string;
  /** Undefined while the child runs; how it ended otherwise (e.g. "signal SIGKILL"). */
  exit(): string | undefined;
  /** SIGTERM, then SIGKILL after graceMs; resolves once the process is gone with its exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface SpawnOptions {
  name: string;
  script: string;
  env: NodeJS.ProcessEnv;
  /** Node flags for the child, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Returns the server's URL from one of its stdout lines once it listens. */
  readyUrl: (line: string) => string | undefined;
  startTimeoutMs?: number;
}

const running = new Set<ChildProcess>();

function killAllNow(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

process.once('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllNow();
    process.exit(130);
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));

export async function spawnServer(options: SpawnOptions): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    process.stderr.write(`[${options.name}] ${chunk}`);
  });

  // Read to the end, so a chatty child never blocks on a full pipe. After the ready line, the
  // child's lines go to the bench's stderr: the platform runs at LOG_LEVEL=warn, so they are its
  // warnings and errors (and its shutdown line), which explain a failed run.
  const lines = createInterface({ input: child.stdout! });
  let ready = false;
  lines.on('line', (line) => {
    if (ready) process.stderr.write(`[${options.name}] ${line}\n`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${options.name} did not start within ${options.startTimeoutMs ?? 30_000} ms`)), options.startTimeoutMs ?? 30_000);
    const onExit = (code: number | null) => fail(new Error(`${options.name} exited with ${code} before it was ready: ${stderr.join('').trim()}`));
    function fail(error: Error): void {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.kill('SIGKILL');
      reject(error);
    }
    child.once('exit', onExit);
    lines.on('line', (line) => {
      const found = ready ? undefined : options.readyUrl(line);
      if (found === undefined) return;
      ready = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(found);
    });
  });

  return {
    name: options.name,
    pid: child.pid!,
    url,
    exit: () =>
      child.exitCode !== null ? `exit code ${child.exitCode}` : child.signalCode !== null ? `signal ${child.signalCode}` : undefined,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const gone = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await gone;
      clearTimeout(timer);
      return code;
    },
  };
}
