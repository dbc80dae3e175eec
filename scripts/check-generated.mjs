// Fails when proto/gen is not what `npm run generate` would produce from proto/, or when the typed
// client's OpenAPI document and types are not what the gateway's operations give now.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'voice-gen-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

try {
  execFileSync(bin('buf'), ['lint'], { cwd: root, stdio: 'inherit' });
  execFileSync(bin('buf'), ['generate', '--output', out], { cwd: root, stdio: 'inherit' });
  const fresh = join(out, 'proto', 'gen');
  const committed = join(root, 'proto', 'gen');
  const freshFiles = files(fresh).map((f) => relative(fresh, f)).sort();
  const committedFiles = files(committed).map((f) => relative(committed, f)).sort();
  const stale = new Set([
    ...freshFiles.filter((f) => !committedFiles.includes(f)),
    ...committedFiles.filter((f) => !freshFiles.includes(f)),
    ...freshFiles.filter(
      (f) => committedFiles.includes(f) && readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8'),
    ),
  ]);
  if (stale.size > 0) {
    console.error(`proto/gen is stale; run \`npm run generate\`. Differs: ${[...stale].join(', ')}`);
    process.exit(1);
  }
  console.log(`proto/gen is up to date (${freshFiles.length} files).`);
} finally {
  rmSync(out, { recursive: true, force: true });
}

// The document comes from the compiled gateway: compile it from the sources as they are.
execFileSync(bin('tsc'), ['-b', 'gateway'], { cwd: root, stdio: 'inherit' });
const { clientArtifacts } = await import('../client/scripts/artifacts.mjs');
const artifacts = Object.entries(await clientArtifacts());
const staleClient = artifacts.filter(([file, text]) => !existsSync(join(root, file)) || readFileSync(join(root, file), 'utf8') !== text).map(([file]) => file);
if (staleClient.length > 0) {
  console.error(`The typed client's generated files are stale; run \`npm run generate\`. Differs: ${staleClient.join(', ')}`);
  process.exit(1);
}
console.log(`The typed client's generated files are up to date (${artifacts.map(([file]) => file).join(', ')}).`);
