// Summarises a V8 .cpuprofile: self time per function and per area of the code (express, Connect, sqlite, ...).
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
  parent?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of samples in which the thread was idle (waiting for I/O). */
  idlePercent: number;
  topFunctions: SelfTime[];
  /** Self time by the area of the function itself. */
  byArea: SelfTime[];
  /**
   * Self time charged to the nearest caller outside Node and V8: time inside node:http2 called
   * by Connect counts for Connect. Work Node starts on its own (parsing an incoming request,
   * reading a socket) has no such caller and stays under its node area.
   */
  byCaller: SelfTime[];
}

/** Ordered: the first rule whose pattern matches a frame's URL names its area. */
const areaRules: [RegExp, string][] = [
  [/node_modules\/express\//, 'express'],
  [/node_modules\/(router|body-parser|raw-body|iconv-lite|qs|path-to-regexp|finalhandler|send|content-type|type-is|mime-types|on-finished|accepts|negotiator|statuses|http-errors|depd|debug|cookie|vary|encodeurl|escape-html|parseurl|fresh|etag|merge-descriptors|forwarded|proxy-addr)\//, 'express (its deps: router, body-parser, ...)'],
  [/node_modules\/@connectrpc\/connect-node\//, 'Connect (connect-node)'],
  [/node_modules\/@connectrpc\/connect\//, 'Connect (core)'],
  [/node_modules\/@bufbuild\/protobuf\//, 'protobuf-es'],
  [/node_modules\/better-sqlite3\//, 'better-sqlite3 (JS side)'],
  [/node_modules\/zod\//, 'zod (validation)'],
  [/node_modules\//, 'other node_modules'],
  [/\/gateway\/dist\//, 'gateway code'],
  [/\/services\/runtime\/dist\//, 'runtime code (caller signing, errors, ...)'],
  [/\/services\/[^/]+\/dist\//, 'service code'],
  [/\/proto\/dist\//, 'generated proto code'],
  [/^node:internal\/http2|^node:http2/, 'node http2'],
  [/^node:(_http|http$|internal\/http)/, 'node http/1.1'],
  [/^node:(net|internal\/stream_base|internal\/streams|stream)/, 'node net/streams'],
  [/^node:internal\/(abort_controller|event_target|per_context\/domexception)/, 'node AbortSignal/EventTarget/DOMException'],
  [/^node:(async_hooks|internal\/async_hooks|internal\/async_local_storage)/, 'node async_hooks'],
  [/^node:(events|internal\/events)/, 'node EventEmitter'],
  [/^node:internal\/(process\/task_queues|timers)|^node:timers/, 'node ticks/timers'],
  [/^node:internal\/modules\//, 'node module loading (start-up)'],
  [/^node:(crypto|internal\/crypto)/, 'node crypto'],
  [/^node:/, 'node other'],
];

function areaOf(frame: CallFrame): string {
  if (frame.url === '') {
    if (frame.functionName === '(garbage collector)') return 'garbage collector';
    if (frame.functionName === '(idle)') return 'idle';
    if (frame.functionName === '(program)') return 'V8/native (program)';
    return `native: ${frame.functionName || '(anonymous)'}`;
  }
  for (const [pattern, area] of areaRules) if (pattern.test(frame.url)) return area;
  return 'other';
}

/** Areas that are Node or V8 themselves, not code that asked for the work. */
const isRuntimeArea = (area: string): boolean => area.startsWith('node ') || area.startsWith('native: ') || area === 'V8/native (program)';

function callerArea(node: ProfileNode, byId: Map<number, ProfileNode>): string {
  const own = areaOf(node.callFrame);
  if (!isRuntimeArea(own)) return own;
  for (let parent = node.parent; parent !== undefined; parent = byId.get(parent)?.parent) {
    const frame = byId.get(parent)?.callFrame;
    if (!frame) break;
    const area = areaOf(frame);
    if (!isRuntimeArea(area) && area !== 'other' && frame.functionName !== '(root)') return area;
  }
  return own;
}

function shortLocation(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/work\/main\//, '');
  return url === '' ? '' : ` ${url}:${frame.lineNumber + 1}`;
}

const top = (totals: Map<string, number>, totalMs: number, count: number): SelfTime[] =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: us / 1000, percent: (100 * us) / 1000 / totalMs }));

export function summariseProfile(file: string, topCount = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) {
    const found = byId.get(child);
    if (found) found.parent = node.id;
  }
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  const callers = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const frame = node.callFrame;
    const caller = callerArea(node, byId);
    callers.set(caller, (callers.get(caller) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'}${shortLocation(frame)}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const area = areaOf(frame);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const totalMs = totalUs / 1000;
  return {
    totalMs,
    idlePercent: (100 * (areas.get('idle') ?? 0)) / totalUs,
    topFunctions: top(functions, totalMs, topCount),
    byArea: top(areas, totalMs, 100),
    byCaller: top(callers, totalMs, 100),
  };
}

/** Prints the summary; with the number of requests served while profiling, also CPU µs per request. */
export function formatProfileSummary(summary: ProfileSummary, requests?: number): string {
  const perRequest = (ms: number) => (requests ? `${((ms * 1000) / requests).toFixed(0).padStart(5)} µs/req  ` : '');
  const row = (entry: SelfTime) => `  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.ms.toFixed(0).padStart(7)} ms  ${perRequest(entry.ms)}${entry.name}`;
  const busyMs = summary.totalMs * (1 - summary.idlePercent / 100);
  return [
    `Profile: ${(summary.totalMs / 1000).toFixed(1)} s sampled, ${summary.idlePercent.toFixed(1)}% idle` +
      (requests ? `, ${requests} requests served, ${perRequest(busyMs).trim()} of busy main-thread CPU` : ''),
    'Self time by area (>= 0.5%):',
    ...summary.byArea.filter((entry) => entry.percent >= 0.5).map(row),
    'Self time charged to the nearest non-Node caller (>= 0.5%):',
    ...summary.byCaller.filter((entry) => entry.percent >= 0.5).map(row),
    'Top functions by self time:',
    ...summary.topFunctions.map(row),
    '',
  ].join('\n');
}
