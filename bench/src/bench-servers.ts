// Starts one of the bench's own baseline servers (servers/*.js) as a child answering with the given body.
import { join } from 'node:path';
import { spawnServer, type ChildServer } from './children.js';
import { readyUrlOfBenchServer } from './servers/ready.js';

export const baselineScripts = {
  bareHttp: 'bare-http.js',
  expressConnect: 'express-connect.js',
} as const;

export type Baseline = keyof typeof baselineScripts;

export function startBaseline(baseline: Baseline, body: unknown, nodeArgs: string[] = []): Promise<ChildServer> {
  return spawnServer({
    name: baseline,
    script: join(__dirname, 'servers', baselineScripts[baseline]),
    nodeArgs,
    env: { ...process.env, BENCH_RESPONSE_BODY: JSON.stringify(body) },
    readyUrl: readyUrlOfBenchServer,
  });
}
