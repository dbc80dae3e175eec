#!/usr/bin/env node
// Copies Scalar's prebuilt standalone browser bundle (a build-time dependency, pinned exactly in
// gateway/package.json) and its license into the gateway's build, dist/assets/scalar/, which is all
// /docs serves: production installs none of Scalar's ~270 packages.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const gatewayRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(gatewayRoot, 'package.json'));
// The package exports only its ESM entry, not the bundle: the bundle sits next to it.
const packageDir = join(dirname(require.resolve('@scalar/api-reference')), '..');
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const pinned = JSON.parse(readFileSync(join(gatewayRoot, 'package.json'), 'utf8')).devDependencies['@scalar/api-reference'];
if (version !== pinned) throw new Error(`@scalar/api-reference ${version} is installed, gateway/package.json pins ${pinned}: run npm install`);

const target = join(gatewayRoot, 'dist', 'assets', 'scalar');
mkdirSync(target, { recursive: true });
copyFileSync(join(packageDir, 'dist', 'browser', 'standalone.js'), join(target, 'standalone.js'));
copyFileSync(join(gatewayRoot, 'third-party', 'scalar-api-reference.LICENSE'), join(target, 'LICENSE'));
writeFileSync(join(target, 'VERSION'), `${version}\n`);
