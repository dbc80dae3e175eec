// The gateway has no store: loading its entry point (the built one, as the image runs it) must not
// load a database driver. The runtime's subpaths make that possible; this keeps it so.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const repository = join(__dirname, '..', '..');
const gatewayEntry = join(repository, 'gateway', 'dist', 'src', 'main.js');

/** The third-party packages a fresh Node process has loaded after requiring `specifier` from the gateway's folder. */
function packagesLoadedBy(specifier: string): string[] {
  const script = `
    require(${JSON.stringify(specifier)});
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const match = /[\\\\/]node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)[\\\\/]/.exec(file);
      if (match) names.add(match[1].replace(/\\\\/g, '/'));
    }
    process.stdout.write(JSON.stringify([...names].sort()));
  `;
  const output = execFileSync(process.execPath, ['-e', script], { cwd: join(repository, 'gateway'), encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

beforeAll(() => {
  if (!existsSync(gatewayEntry)) throw new Error(`${gatewayEntry} is missing: build first (npx tsc -b)`);
});

test('loading the gateway loads neither better-sqlite3 nor mongodb', () => {
  const loaded = packagesLoadedBy(gatewayEntry);
  expect(loaded).toContain('express');
  expect(loaded).not.toContain('better-sqlite3');
  expect(loaded).not.toContain('mongodb');
});

test('the runtime loads a driver only through the subpath that needs it', () => {
  expect(packagesLoadedBy('@voice/runtime/store/sqlite')).toContain('better-sqlite3');
  expect(packagesLoadedBy('@voice/runtime/store/mongo')).toContain('mongodb');
  for (const light of ['@voice/runtime/config', '@voice/runtime/logger', '@voice/runtime/validation', '@voice/runtime/errors']) {
    const loaded = packagesLoadedBy(light);
    for (const heavy of ['better-sqlite3', 'mongodb', 'nats', 'prom-client']) expect(loaded).not.toContain(heavy);
  }
});
