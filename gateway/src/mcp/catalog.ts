// The MCP tools: one per operation that names one, offered to a credential only when its scopes
// and its workspace's plan allow the operation, and only from the toolsets asked for.
import type { AuthContext } from '../auth/auth-context.js';
import { badRequest } from '../errors/http-error.js';
import { featureRefusal } from '../middleware/require-feature.js';
import { scopeRefusal } from '../middleware/require-scope.js';
import { toolsets, type Operation, type Toolset } from '../rest/operation.js';

export type ToolOperation = Operation<any, any> & { doc: { mcp: NonNullable<Operation['doc']['mcp']> } };

export const toolOperations = (operations: readonly Operation<any, any>[]): ToolOperation[] =>
  operations.filter((op): op is ToolOperation => op.doc.mcp !== undefined);

/** Why this caller may not use the operation, or undefined. */
export const refusalFor = (op: Operation<any, any>, auth: AuthContext) =>
  (op.scope ? scopeRefusal(auth, [op.scope]) : undefined) ?? (op.feature ? featureRefusal(auth, op.feature) : undefined);

/** `?toolsets=a,b`: the toolsets to serve; every one when absent. Unknown names are a 400 that lists the known ones. */
export function parseToolsets(raw: unknown): Set<Toolset> {
  if (raw === undefined || raw === '') return new Set(toolsets);
  const names = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()) : [];
  const unknown = names.filter((name) => !(toolsets as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw badRequest([{ field: 'toolsets', issue: `unknown toolset ${unknown.join(', ') || String(raw)}; known: ${toolsets.join(', ')}` }]);
  }
  return new Set(names as Toolset[]);
}

/** The tools this caller is offered: those its scopes and plan allow. */
export const offeredTools = (tools: readonly ToolOperation[], auth: AuthContext): ToolOperation[] => tools.filter((op) => refusalFor(op, auth) === undefined);
