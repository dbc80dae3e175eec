// The production Node flags are one list: `npm start` and every image carry exactly it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformNodeFlags } from '../src/node-flags.js';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

test('npm start runs the platform with the production flags', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.start).toBe(`node ${platformNodeFlags.join(' ')} platform/dist/src/main.js`);
});

test('every image sets NODE_OPTIONS to the production flags', () => {
  // One Dockerfile builds every process's image.
  expect(/NODE_OPTIONS="([^"]*)"/.exec(read('Dockerfile'))?.[1]).toBe(platformNodeFlags.join(' '));
});
