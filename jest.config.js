// One Jest run for every workspace: tests run from TypeScript sources (swc transpiles,
// `tsc -b` type-checks separately in `npm test`).
const workspaces = {
  runtime: 'services/runtime',
  contracts: 'contracts',
  identity: 'services/identity',
  tools: 'services/tools',
  telephony: 'services/telephony',
  billing: 'services/billing',
  'platform-users': 'services/platform-users',
  assistants: 'services/assistants',
  calls: 'services/calls',
  campaigns: 'services/campaigns',
  webhooks: 'services/webhooks',
  'voice-sandbox': 'services/voice-sandbox',
  gateway: 'gateway',
  client: 'client',
  platform: 'platform',
};

const moduleNameMapper = {
  '^@voice/proto/(.*)$': '<rootDir>/proto/gen/$1_pb.ts',
  // Relative imports carry the .js extension NodeNext needs; the sources are .ts.
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
// A workspace with an exports map is imported by exactly those paths (the runtime has no root
// barrel: each part is a subpath); each maps to the source its built file is compiled from.
for (const [name, dir] of Object.entries(workspaces)) {
  const { exports } = require(`./${dir}/package.json`);
  if (exports === undefined) {
    moduleNameMapper[`^@voice/${name}$`] = `<rootDir>/${dir}/src/index.ts`;
    moduleNameMapper[`^@voice/${name}/(.*)$`] = `<rootDir>/${dir}/src/$1.ts`;
    continue;
  }
  for (const [subpath, target] of Object.entries(exports)) {
    const specifier = `@voice/${name}${subpath.slice(1)}`.replace(/\./g, '\\.');
    moduleNameMapper[`^${specifier}$`] = `<rootDir>/${dir}/${target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')}`;
  }
}

// Files that need a MongoDB server throughout end in .mongodb.test.ts: without MONGODB_URI they do not run,
// and the run says so (CI sets it). Files with a MongoDB part beside others use mongoUriFor instead.
const mongoOnly = '\\.mongodb\\.test\\.ts$';
if (!process.env.MONGODB_URI) console.info('The *.mongodb.test.ts files are not run: MONGODB_URI is not set (no MongoDB server on this machine).');

module.exports = {
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.MONGODB_URI ? [] : [mongoOnly])],
  roots: ['<rootDir>/services', '<rootDir>/contracts', '<rootDir>/gateway', '<rootDir>/client', '<rootDir>/platform', '<rootDir>/test'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] },
  // ESM-only packages the tests import are compiled to CommonJS like the sources.
  transformIgnorePatterns: ['/node_modules/(?!(oauth4webapi|@sparticuz/chromium|http-proxy-middleware|httpxy|is-plain-obj)/)'],
  moduleNameMapper,
  // Unpacks the browser of the browser tests once, before the workers start (test/support/global-setup.ts).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
  // Services and SQLite files are cheap, but two cores are all CI has.
  maxWorkers: 2,
};
