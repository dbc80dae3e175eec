// The OpenAPI document against the gateway's own route table, read in the test process: every
// route it serves is declared and documented, and documents built for another address name it.
// Single-process by nature (jest.cluster.config.js leaves it to the main run); the rest of the
// OpenAPI checks, in openapi.test.ts, run on both topologies.
import { openApiDocument, restRouterOf } from '@voice/gateway';
import { knownRoutes, operationsOf, type Json } from './support/openapi-routes.js';
import { inProcess, startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

test('the document names the servers of the address it is built for (a tenant domain gets its own)', () => {
  const rest = restRouterOf(inProcess(platform).gatewayApp);
  const tenant = openApiDocument(rest.operations(), { publicUrl: 'https://voice.acme.test', platformName: 'Acme Voice' }) as Json;
  expect(tenant.servers).toEqual([{ url: 'https://voice.acme.test/api/v1', description: 'Acme Voice' }]);
  expect(tenant.info.title).toBe('Acme Voice API');
  expect(tenant.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl).toBe('https://voice.acme.test/oauth/token');
});

test('every route the gateway serves under /api/v1 is documented, and only those', async () => {
  const doc = (await (await fetch(`${platform.running.url}/api/v1/openapi.json`)).json()) as Json;
  const rest = restRouterOf(inProcess(platform).gatewayApp);
  const served = [...rest.paths()]
    .flatMap(([path, verbs]) => [...verbs].filter((verb) => verb !== 'HEAD').map((verb) => `${verb} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`))
    .sort();
  // Routes put on the express router directly, past the RestRouter's own table.
  const onRouter = (rest.router as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] }).stack
    .flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).filter((verb) => verb !== '_all').map((verb) => `${verb.toUpperCase()} ${layer.route!.path}`) : []))
    .filter((route) => !route.startsWith('HEAD '))
    .map((route) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}'))
    .sort();
  const documented = operationsOf(doc).map(([route]) => route).sort();
  const declared = rest.operations().map((op) => `${op.method.toUpperCase()} ${op.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`).sort();

  expect(served).toEqual(knownRoutes);
  expect(onRouter).toEqual(knownRoutes);
  expect(declared).toEqual(knownRoutes);
  expect(documented).toEqual(knownRoutes);
});
