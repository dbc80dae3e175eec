#!/usr/bin/env node
// Writes the per-process Dockerfiles (services/<name>/Dockerfile, gateway/Dockerfile) from
// deploy/docker/Dockerfile.template, so the six services and the gateway share one recipe.
//
//   node deploy/docker/generate.mjs          write them
//   node deploy/docker/generate.mjs --check  exit 1 when one is missing or differs (validate:deploy runs this)
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every process that gets an image: its workspace, the port it listens on and the variable naming its host. */
export const images = [
  { name: 'identity', workspace: 'services/identity', port: 50051, hostVariable: 'VOICE_IDENTITY_HOST' },
  { name: 'tools', workspace: 'services/tools', port: 50052, hostVariable: 'VOICE_TOOLS_HOST' },
  { name: 'telephony', workspace: 'services/telephony', port: 50053, hostVariable: 'VOICE_TELEPHONY_HOST' },
  { name: 'billing', workspace: 'services/billing', port: 50054, hostVariable: 'VOICE_BILLING_HOST' },
  { name: 'platform-users', workspace: 'services/platform-users', port: 50055, hostVariable: 'VOICE_PLATFORM_USERS_HOST' },
  { name: 'assistants', workspace: 'services/assistants', port: 50056, hostVariable: 'VOICE_ASSISTANTS_HOST' },
  { name: 'gateway', workspace: 'gateway', port: 8080, hostVariable: 'HOST' },
];

const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** Workspace folder of every workspace package, by package name. */
function workspacesByName() {
  const byName = new Map();
  for (const workspace of readJson('package.json').workspaces) {
    byName.set(readJson(join(workspace, 'package.json')).name, workspace);
  }
  return byName;
}

/**
 * The workspace and every workspace it needs at run time (its `dependencies`, transitively), in
 * dependency order: what the runtime stage copies dist/ and package.json of.
 */
export function runtimeClosure(workspace, byName = workspacesByName()) {
  const order = [];
  const visit = (dir) => {
    if (order.includes(dir)) return;
    for (const dependency of Object.keys(readJson(join(dir, 'package.json')).dependencies ?? {})) {
      const dependencyDir = byName.get(dependency);
      if (dependencyDir) visit(dependencyDir);
    }
    order.push(dir);
  };
  visit(workspace);
  return order;
}

/**
 * The workspaces `tsc -b <workspace>` compiles: the project references, transitively. Their
 * sources are what the build stage copies.
 */
export function buildClosure(workspace) {
  const order = [];
  const visit = (dir) => {
    if (order.includes(dir)) return;
    const text = readFileSync(join(root, dir, 'tsconfig.json'), 'utf8');
    // tsconfig.json may carry comments; the references are plain {"path": "..."} entries.
    for (const match of text.matchAll(/"path"\s*:\s*"([^"]+)"/g)) visit(relative(root, join(root, dir, match[1])));
    order.push(dir);
  };
  visit(workspace);
  return order;
}

export function render(image) {
  const template = readFileSync(join(root, 'deploy/docker/Dockerfile.template'), 'utf8');
  const workspaces = readJson('package.json').workspaces;
  const dockerfile = `${image.workspace}/Dockerfile`;
  const values = {
    NAME: image.name,
    PACKAGE: readJson(join(image.workspace, 'package.json')).name,
    DOCKERFILE: dockerfile,
    WORKSPACE: image.workspace,
    PORT: String(image.port),
    CLOSURE: runtimeClosure(image.workspace).join(' '),
    MANIFEST_COPIES: workspaces.map((ws) => `COPY ${ws}/package.json ${ws}/`).join('\n'),
    SOURCE_COPIES: buildClosure(image.workspace).map((ws) => `COPY ${ws} ${ws}`).join('\n'),
    LISTEN_ENV: `    ${image.hostVariable}=0.0.0.0 \\`,
  };
  const text = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`unknown placeholder {{${key}}} in Dockerfile.template`);
    return values[key];
  });
  return { path: dockerfile, text };
}

function main() {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const image of images) {
    const { path, text } = render(image);
    const full = join(root, path);
    if (check) {
      if (!existsSync(full) || readFileSync(full, 'utf8') !== text) {
        console.error(`${path} is stale: run node deploy/docker/generate.mjs`);
        stale += 1;
      }
    } else {
      writeFileSync(full, text);
      console.log(`wrote ${path}`);
    }
  }
  if (stale > 0) process.exit(1);
  if (check) console.log(`Dockerfiles: ${images.length} up to date with deploy/docker/Dockerfile.template`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
