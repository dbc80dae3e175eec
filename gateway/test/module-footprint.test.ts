// The gateway has no store and no service inside: loading its entry point (the built one, as the
// image runs it) must load no database driver and no service's code. The runtime's subpaths and the
// contracts workspace make that possible; this keeps it so.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const repository = join(__dirname, '..', '..');
const gatewayEntry = join(repository, 'gateway', 'dist', 'src', 'main.js');

/** The files a fresh Node process has loaded after requiring `specifier` from the gateway's folder. */
function filesLoadedBy(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const output = execFileSync(process.execPath, ['-e', script], { cwd: join(repository, 'gateway'), encoding: 'utf8' });
  return (JSON.parse(output) as string[]).map((file) => file.split('\\').join('/'));
}

/** The third-party packages among files loaded. */
function packagesAmong(files: string[]): string[] {
  const names = files.flatMap((file) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []);
  return [...new Set(names)].sort();
}

const packagesLoadedBy = (specifier: string): string[] => packagesAmong(filesLoadedBy(specifier));

// The gateway's entry point is loaded once for the tests that look at it (a process of its own each time costs seconds).
let gatewayFiles: string[] | undefined;
const filesLoadedByGateway = (): string[] => (gatewayFiles ??= filesLoadedBy(gatewayEntry));

beforeAll(() => {
  if (!existsSync(gatewayEntry)) throw new Error(`${gatewayEntry} is missing: build first (npx tsc -b)`);
});

test('loading the gateway loads neither better-sqlite3 nor mongodb', () => {
  const loaded = packagesAmong(filesLoadedByGateway());
  expect(loaded).toContain('express');
  expect(loaded).not.toContain('better-sqlite3');
  expect(loaded).not.toContain('mongodb');
});

test('the gateway depends on proto, contracts and runtime only, and loads no service code', () => {
  const { dependencies } = JSON.parse(readFileSync(join(repository, 'gateway', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(Object.keys(dependencies).filter((name) => name.startsWith('@voice/')).sort()).toEqual(['@voice/contracts', '@voice/proto', '@voice/runtime']);
  const serviceFiles = filesLoadedByGateway().filter((file) => /\/services\/(?!runtime\/)[^/]+\//.test(file));
  expect(serviceFiles).toEqual([]);
});

test('the runtime loads a driver only through the subpath that needs it', () => {
  expect(packagesLoadedBy('@voice/runtime/store/sqlite')).toContain('better-sqlite3');
  expect(packagesLoadedBy('@voice/runtime/store/mongo')).toContain('mongodb');
  for (const light of ['@voice/runtime/config', '@voice/runtime/logger', '@voice/runtime/validation', '@voice/runtime/errors']) {
    const loaded = packagesLoadedBy(light);
    for (const heavy of ['better-sqlite3', 'mongodb', 'nats', 'prom-client']) expect(loaded).not.toContain(heavy);
  }
});
