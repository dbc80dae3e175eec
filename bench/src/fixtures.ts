// Creates the tools the platform runs are measured on (one per connection) and reads one back.
import { expectApi } from './api-client.js';

export interface ToolFixture {
  id: string;
  revision: number;
}

function toolOf(json: unknown): ToolFixture {
  const data = (json as { data?: { id?: unknown; revision?: unknown } }).data;
  if (typeof data?.id !== 'string' || typeof data.revision !== 'number') throw new Error(`not a tool: ${JSON.stringify(json)}`);
  return { id: data.id, revision: data.revision };
}

export async function createTools(baseUrl: string, apiKey: string, count: number): Promise<ToolFixture[]> {
  const tools: ToolFixture[] = [];
  for (let i = 0; i < count; i++) {
    const json = await expectApi(201, baseUrl, apiKey, 'POST', '/api/v1/tools', {
      name: `bench-${i}`,
      type: 'api',
      config: { url: 'https://example.com/hook', headers: { 'X-Key': 'secret' } },
    });
    tools.push(toolOf(json));
  }
  return tools;
}

/** The exact JSON body of GET /api/v1/tools/{id}, which the baseline servers answer with. */
export async function readToolBody(baseUrl: string, apiKey: string, id: string): Promise<unknown> {
  return expectApi(200, baseUrl, apiKey, 'GET', `/api/v1/tools/${id}`);
}

/** Re-reads each tool's revision in place (a PATCH cut off by the end of a run may still have landed). */
export async function refreshRevisions(baseUrl: string, apiKey: string, tools: ToolFixture[]): Promise<void> {
  for (const tool of tools) tool.revision = toolOf(await readToolBody(baseUrl, apiKey, tool.id)).revision;
}
