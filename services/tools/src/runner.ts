// Runs a tool once for POST /tools/{id}/test, with its secrets opened and the egress guard on.
import type { JsonObject } from '@bufbuild/protobuf';
import type { ApiToolConfig, McpToolConfig } from '@voice/contracts/tools';
import { runApiTool } from './testing/api-runner.js';
import { egressPolicy, type EgressPolicy } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import { listMcpServerTools } from './testing/mcp-runner.js';
import type { TestOutcome } from './testing/outcome.js';

export interface ToolRunner {
  runApi(config: ApiToolConfig, args: JsonObject): Promise<TestOutcome>;
  listMcp(config: McpToolConfig): Promise<TestOutcome>;
}

/** The outbound side of a test run: the egress policy, and where a failed request's detail is logged. */
export interface Egress {
  policy: EgressPolicy;
  logger?: Logger;
}

export function createToolRunner(options: { allowPrivate: boolean; logger?: Logger }): ToolRunner {
  const egress = { policy: egressPolicy(options), logger: options.logger };
  return {
    runApi: (config, args) => runApiTool(config, args, egress),
    listMcp: (config) => listMcpServerTools(config, egress),
  };
}
