// The end-to-end suite (test/*.test.ts) once more, against the cluster: every service and the
// gateway as processes of their own (the built entry points, so `tsc -b` first), over the NATS
// server at NATS_URL (nats://127.0.0.1:4222 by default). `npm test` runs it after the main run.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const base = require('./jest.config.js');

// Read by test/support/platform.ts, here and in the workers Jest starts from here.
process.env.VOICE_E2E_TOPOLOGY = 'cluster';

// Files that start the platform but are single-process by nature; every other e2e file runs whole
// on the cluster.
const singleProcessOnly = {
  'platform-lifecycle.test.ts': 'the single-process lifecycle: startPlatform itself, an in-process gateway, `npm start` spawned',
  'metrics.test.ts': "the one metrics endpoint of the single process (each of the cluster's children serves its own)",
  'openapi-route-table.test.ts': "reads the gateway's route table in the test process (the document's other checks run on both)",
  'summary-emails-redelivery.test.ts': "publishes a copy of an event through the single process's event stream (summary-emails.test.ts runs on both)",
};
// A file that never calls startTestPlatform (cluster.test.ts starts its own cluster; others start
// no platform) runs the same in both topologies: the main run covers it.
const topologyFree = 'starts no platform through startTestPlatform: the same in both topologies, the main run has it';
const excluded = Object.fromEntries(
  readdirSync(join(__dirname, 'test'))
    .filter((file) => file.endsWith('.test.ts'))
    .flatMap((file) => {
      if (singleProcessOnly[file]) return [[file, singleProcessOnly[file]]];
      const source = readFileSync(join(__dirname, 'test', file), 'utf8');
      return /\bstartTestPlatform\(/.test(source) ? [] : [[file, topologyFree]];
    }),
);

module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...Object.keys(excluded).map((file) => `/test/${file.replace(/\./g, '\\.')}$`)],
  // Six processes per platform: a start takes 3 to 4 s, and more on two busy cores.
  testTimeout: 60000,
  // Two files at a time, twelve platform processes on two cores: about 2 min for the suite where one
  // at a time takes 3.5, with no test near its timeout even beside a second Jest run.
  maxWorkers: 2,
};
