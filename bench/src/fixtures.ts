// Creates the tools the platform runs are measured on (one per connection) and reads one back.
export interface ToolFixture {
  id: string;
  revision: number;
}

async function call(url: string, apiKey: string, init: { method: string; body?: unknown }): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: init.method,
    headers: { Authorization: `Bearer ${apiKey}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, json: await response.json() };
}

function toolOf(json: unknown): ToolFixture {
  const data = (json as { data?: { id?: unknown; revision?: unknown } }).data;
  if (typeof data?.id !== 'string' || typeof data.revision !== 'number') throw new Error(`not a tool: ${JSON.stringify(json)}`);
  return { id: data.id, revision: data.revision };
}

export async function createTools(baseUrl: string, apiKey: string, count: number): Promise<ToolFixture[]> {
  const tools: ToolFixture[] = [];
  for (let i = 0; i < count; i++) {
    const { status, json } = await call(`${baseUrl}/api/v1/tools`, apiKey, {
      method: 'POST',
      body: { name: `bench-${i}`, type: 'api', config: { url: 'https://example.com/hook', headers: { 'X-Key': 'secret' } } },
    });
    if (status !== 201) throw new Error(`POST /api/v1/tools answered ${status}: ${JSON.stringify(json)}`);
    tools.push(toolOf(json));
  }
  return tools;
}

/** The exact JSON body of GET /api/v1/tools/{id}, which the baseline servers answer with. */
export async function readToolBody(baseUrl: string, apiKey: string, id: string): Promise<unknown> {
  const { status, json } = await call(`${baseUrl}/api/v1/tools/${id}`, apiKey, { method: 'GET' });
  if (status !== 200) throw new Error(`GET /api/v1/tools/${id} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

/** Re-reads each tool's revision in place (a PATCH cut off by the end of a run may still have landed). */
export async function refreshRevisions(baseUrl: string, apiKey: string, tools: ToolFixture[]): Promise<void> {
  for (const tool of tools) tool.revision = toolOf(await readToolBody(baseUrl, apiKey, tool.id)).revision;
}
