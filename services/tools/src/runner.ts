// Runs a tool once for POST /tools/{id}/test, with its secrets opened and the egress guard on.
import type { JsonObject } from '@bufbuild/protobuf';
import type { ApiToolConfig, McpToolConfig } from '@voice/contracts/tools';
import { runApiTool } from './testing/api-runner.js';
import { egressPolicy } from '@voice/runtime/egress';
import { listMcpServerTools } from './testing/mcp-runner.js';
import type { TestOutcome } from './testing/outcome.js';

export interface ToolRunner {
  runApi(config: ApiToolConfig, args: JsonObject): Promise<TestOutcome>;
  listMcp(config: McpToolConfig): Promise<TestOutcome>;
}

export function createToolRunner(options: { allowPrivate: boolean }): ToolRunner {
  const policy = egressPolicy(options);
  return {
    runApi: (config, args) => runApiTool(config, args, policy),
    listMcp: (config) => listMcpServerTools(config, policy),
  };
}
