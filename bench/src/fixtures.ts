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

/** An assistant as a Vapi or Retell user configures one: model, voice, transcriber, builtin tools, end-of-call rules, analysis. */
const assistantBody = (i: number) => ({
  name: `bench assistant ${i}`,
  first_message: 'Hello {{customer_name}}, thanks for calling. How can I help?',
  system_prompt: 'You are the receptionist of a dental practice. Book, move and cancel appointments.',
  language: 'en-US',
  model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.3, max_tokens: 400 },
  voice: { provider: 'azure', voice_id: 'en-US-JennyNeural', speed: 1.1 },
  transcriber: { provider: 'deepgram', model: 'nova-3', language: 'en' },
  builtin_tools: [{ type: 'call_transfer', destination: '+14155550123', sip_headers: { 'X-Account': 'secret' } }],
  variables: [{ name: 'customer_name', description: 'who is calling', default_value: 'there' }],
  end_call: { max_duration_seconds: 900, silence_timeout_seconds: 20, phrases: ['goodbye'] },
  analysis_plan: { summary_instructions: 'Summarise the call in two sentences.', success_criteria: 'An appointment was booked.' },
});

/** Creates `count` assistants; their ids. */
export async function createAssistants(baseUrl: string, apiKey: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const json = (await expectApi(201, baseUrl, apiKey, 'POST', '/api/v1/assistants', assistantBody(i))) as { data?: { id?: unknown } };
    if (typeof json.data?.id !== 'string') throw new Error(`not an assistant: ${JSON.stringify(json)}`);
    ids.push(json.data.id);
  }
  return ids;
}
