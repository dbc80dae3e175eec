// Writes the typed client's generated files (client/openapi.json, client/src/generated/openapi.ts)
// from the compiled gateway; the root's `npm run generate` runs it after compiling the gateway.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clientArtifacts, root } from './artifacts.mjs';

for (const [file, text] of Object.entries(await clientArtifacts())) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
  console.log(`wrote ${file}`);
}
