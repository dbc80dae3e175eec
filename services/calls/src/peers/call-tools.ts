// An assistant's tools as a call uses them, through the tools service: what the language model is
// offered (each active `api` tool, its model-sourced parameters as a JSON Schema), and one run of a
// tool with the model's arguments through the tools service's own request path and egress guard
// (TestTool), answered for the model.
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { callHeaders, serviceCaller, type CallerSigner } from '@voice/runtime/caller';
import type { Tool, ToolsService } from '@voice/proto/voice/tools/v1/tools';

export interface CallTool {
  id: string;
  name: string;
  description: string;
  /** JSON Schema of the arguments the model gives. */
  parameters: JsonObject;
}

export type ToolRun = { ok: true; result: JsonValue } | { ok: false; error: string };

export interface CallTools {
  /** The runnable tools among `ids` in the workspace (a tool deleted since is left out). */
  list(workspaceId: string, ids: readonly string[], requestId: string): Promise<CallTool[]>;
  run(workspaceId: string, toolId: string, args: JsonObject, requestId: string): Promise<ToolRun>;
}

interface ApiParameter {
  name: string;
  type: string;
  description?: string;
  required?: boolean;
  source?: string;
}

/** The arguments the model fills in: parameters whose source is the model (context ones come from the call). */
function argumentSchema(tool: Tool): JsonObject {
  const parameters = ((tool.config?.parameters ?? []) as unknown as ApiParameter[]).filter((parameter) => (parameter.source ?? 'model') === 'model');
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, { type: parameter.type, ...(parameter.description ? { description: parameter.description } : {}) }])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

export class ConnectCallTools implements CallTools {
  constructor(
    private readonly client: Client<typeof ToolsService>,
    private readonly signer: CallerSigner,
  ) {}

  private options(workspaceId: string, requestId: string) {
    return { headers: callHeaders(this.signer, serviceCaller('calls', workspaceId, requestId)) };
  }

  async list(workspaceId: string, ids: readonly string[], requestId: string): Promise<CallTool[]> {
    const tools: CallTool[] = [];
    for (const id of ids) {
      let tool: Tool;
      try {
        tool = (await this.client.getTool({ id }, this.options(workspaceId, requestId))).tool!;
      } catch (error) {
        if (ConnectError.from(error).code === Code.NotFound) continue;
        throw error;
      }
      if (tool.type === 'api' && tool.isActive) tools.push({ id: tool.id, name: tool.name, description: tool.description, parameters: argumentSchema(tool) });
    }
    return tools;
  }

  async run(workspaceId: string, toolId: string, args: JsonObject, requestId: string): Promise<ToolRun> {
    let answer;
    try {
      answer = await this.client.testTool({ id: toolId, arguments: args }, this.options(workspaceId, requestId));
    } catch (error) {
      const refused = ConnectError.from(error);
      if (refused.code === Code.InvalidArgument || refused.code === Code.PermissionDenied) return { ok: false, error: refused.rawMessage };
      throw error;
    }
    const result = answer.result;
    if (result.case === 'http') {
      const body = result.value.body ? toJson(ValueSchema, result.value.body) : null;
      const mapped = result.value.mapped && Object.keys(result.value.mapped).length > 0 ? (result.value.mapped as JsonValue) : undefined;
      const succeeded = result.value.status >= 200 && result.value.status < 300;
      return succeeded ? { ok: true, result: mapped ?? body } : { ok: false, error: `the tool's endpoint answered ${result.value.status}` };
    }
    if (result.case === 'failure') return { ok: false, error: result.value.message };
    return { ok: false, error: 'this tool cannot run during a call' };
  }
}
