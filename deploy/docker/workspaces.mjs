#!/usr/bin/env node
// Which workspaces an image of one process needs, read from the repository itself: `build` the
// sources `tsc -b <workspace>` compiles (its project references, transitively), `runtime` the
// workspaces it loads at run time (its `dependencies` on workspace packages, transitively), each in
// dependency order. The Dockerfile runs it while building; validate:deploy checks with it.
//
//   node deploy/docker/workspaces.mjs build|runtime <workspace> [repository root]
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const readJson = (root, path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** Visits `start` and what `next` names from each folder, answering them dependencies first. */
function closure(start, next) {
  const order = [];
  const visit = (dir) => {
    if (order.includes(dir)) return;
    for (const dependency of next(dir)) visit(dependency);
    order.push(dir);
  };
  visit(start);
  return order;
}

/** The workspace and every workspace it needs at run time: what the image copies dist/ and package.json of. */
export function runtimeClosure(root, workspace) {
  const byName = new Map(readJson(root, 'package.json').workspaces.map((dir) => [readJson(root, join(dir, 'package.json')).name, dir]));
  return closure(workspace, (dir) =>
    Object.keys(readJson(root, join(dir, 'package.json')).dependencies ?? {})
      .map((name) => byName.get(name))
      .filter((dependency) => dependency !== undefined),
  );
}

/** The workspaces `tsc -b <workspace>` compiles: the sources the build copies. */
export function buildClosure(root, workspace) {
  return closure(workspace, (dir) => {
    // tsconfig.json may carry comments; the references are plain {"path": "..."} entries.
    const text = readFileSync(join(root, dir, 'tsconfig.json'), 'utf8');
    return [...text.matchAll(/"path"\s*:\s*"([^"]+)"/g)].map((match) => relative(root, join(root, dir, match[1])));
  });
}

function main() {
  const [kind, workspace, root = process.cwd()] = process.argv.slice(2);
  const closures = { build: buildClosure, runtime: runtimeClosure };
  if (!(kind in closures) || !workspace) {
    console.error('usage: node deploy/docker/workspaces.mjs build|runtime <workspace> [repository root]');
    process.exit(2);
  }
  console.log(closures[kind](root, workspace).join(' '));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
