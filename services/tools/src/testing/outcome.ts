// What one test run of a tool produced; the service turns it into TestToolResponse.
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { RequestFailureCode } from '@voice/runtime/egress';

export interface McpServerToolInfo {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

export type TestOutcome =
  | { kind: 'http'; status: number; body: JsonValue; mapped: JsonObject; durationMs: number }
  | { kind: 'mcp'; tools: McpServerToolInfo[]; durationMs: number }
  | { kind: 'failure'; code: RequestFailureCode; message: string; durationMs: number };


/** The arguments given for a test run do not fit the tool's parameters. */
export class ToolArgumentError extends Error {
  constructor(readonly issues: { field: string; issue: string }[]) {
    super(issues.map((i) => `${i.field}: ${i.issue}`).join('; '));
    this.name = 'ToolArgumentError';
  }
}
