// The platform's GET paths the bench measures, each with the request every connection sends. The
// first is the full GET compared with the baselines in the A/B rounds (they answer with its body)
// and measured on the cluster; each further one gets a measured run of its own on the single
// process, in the same table.
import { expectApi } from './api-client.js';
import { createAssistants, readToolBody, type ToolFixture } from './fixtures.js';
import { getByIdScenario, getToolScenario, type Scenario } from './scenarios.js';

/** What a GET path's requests may use: the platform's address and key, and the bench's fixtures. */
export interface GetPathContext {
  url: string;
  apiKey: string;
  /** One tool per connection. */
  tools: ToolFixture[];
}

export interface GetPath {
  key: string;
  label: string;
  /** Creates what the path reads (if anything), builds its requests and reads one answer's body. */
  prepare(context: GetPathContext): Promise<{ scenario: Scenario; body: unknown }>;
}

export const platformGetPaths: readonly [GetPath, ...GetPath[]] = [
  {
    key: 'tools',
    label: 'GET /api/v1/tools/{id}',
    prepare: async ({ url, apiKey, tools }) => ({
      scenario: getToolScenario(apiKey, tools.map((tool) => tool.id)),
      body: await readToolBody(url, apiKey, tools[0]!.id),
    }),
  },
  {
    key: 'assistants',
    label: 'GET /api/v1/assistants/{id}',
    prepare: async ({ url, apiKey, tools }) => {
      const ids = await createAssistants(url, apiKey, Math.min(tools.length, 10));
      return { scenario: getByIdScenario(apiKey, 'assistants', ids), body: await expectApi(200, url, apiKey, 'GET', `/api/v1/assistants/${ids[0]!}`) };
    },
  },
  // The next GET path goes here: create its fixtures in prepare and return its scenario.
];
