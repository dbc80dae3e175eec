// The production Node flags are one list: `npm start`, every image and every manifest that names
// another entry carry exactly it on node's command line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformNodeFlags } from '../src/node-flags.js';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

test('npm start runs the platform with the production flags', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.start).toBe(`node ${platformNodeFlags.join(' ')} platform/dist/src/main.js`);
});

test("every image's CMD runs node with the production flags", () => {
  // One Dockerfile builds every process's image.
  const dockerfile = read('Dockerfile');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  expect(cmd && JSON.parse(cmd)).toEqual(['node', ...platformNodeFlags, 'main.js']);
  // NODE_OPTIONS would be a second list (and refuses some of these flags).
  expect(dockerfile).not.toMatch(/NODE_OPTIONS/);
});

test('a manifest that names another entry runs node with the production flags', () => {
  const commands = readdirSync(join(root, 'deploy/base'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => [...read(`deploy/base/${file}`).matchAll(/command: (\["node",.*\])$/gm)].map((match) => JSON.parse(match[1]!) as string[]));
  expect(commands.length).toBeGreaterThanOrEqual(2);
  for (const command of commands) expect(command.slice(0, platformNodeFlags.length + 1)).toEqual(['node', ...platformNodeFlags]);
});
