// Starts one of the bench's own baseline servers (servers/*.js) as a child answering with the given
// body, with the platform's production Node flags so the comparison is like for like.
import { join } from 'node:path';
import { platformNodeFlags } from '@voice/platform';
import { spawnServer, type ChildServer } from './children.js';
import { readyUrlOfBenchServer } from './servers/ready.js';

export const baselineScripts = {
  bareHttp: 'bare-http.js',
  expressConnect: 'express-connect.js',
} as const;

export type Baseline = keyof typeof baselineScripts;

export function startBaseline(baseline: Baseline, body: unknown, nodeArgs: readonly string[] = platformNodeFlags): Promise<ChildServer> {
  return spawnServer({
    name: baseline,
    script: join(__dirname, 'servers', baselineScripts[baseline]),
    nodeArgs: [...nodeArgs],
    env: { ...process.env, BENCH_RESPONSE_BODY: JSON.stringify(body) },
    readyUrl: readyUrlOfBenchServer,
  });
}
