// Lints the OpenAPI document of /api/v1 as the gateway builds it from its real route table:
// the compiled gateway's operations (no server started) written to a temporary file, then
// `redocly lint` with the repository's redocly.yaml. Needs `tsc -b` first (npm run lint:openapi does it;
// `npm test` builds before it and runs this script directly).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const gatewayEntry = join(root, 'gateway/dist/src/index.js');
if (!existsSync(gatewayEntry)) {
  console.error(`openapi-lint: ${gatewayEntry} is missing; run \`tsc -b\` first`);
  process.exit(1);
}
const { apiOperations, openApiDocument } = require(gatewayEntry);

const operations = apiOperations();
// A reserved name (RFC 2606): the real address is the deployment's VOICE_PUBLIC_URL.
const document = openApiDocument(operations, { publicUrl: 'https://voice-platform.invalid', platformName: 'Voice platform' });
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
try {
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`openapi-lint: ${operations.length} operations, ${Object.keys(document.paths).length} paths`);
  const redocly = join(root, 'node_modules/.bin/redocly');
  const result = spawnSync(redocly, ['lint', '--format=stylish', `--config=${join(root, 'redocly.yaml')}`, file], {
    cwd: root,
    stdio: 'inherit',
    // Offline and quiet: no usage telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
