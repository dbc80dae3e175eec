// The scopes /mcp names in its challenges (MCP 2025-11-25 authorization): in a 401, the scopes the
// chosen toolsets' tools read with, so a client asks for those instead of every scope the server
// knows; in a 403 for a tool the token may not call, the scopes held plus the one missing, so the
// client can step up without losing what it has.
import type { Request } from 'express';
import { impliedRead } from '@voice/runtime/access';
import type { AuthContext } from '../auth/auth-context.js';
import type { Operation } from '../rest/operation.js';
import { parseToolsets, toolOperations } from './catalog.js';

/** The read scopes of the tools in `?toolsets=` (every toolset when absent or unreadable), sorted. */
export function entryScopesOf(operations: readonly Operation<any, any>[], req: Request): string {
  let chosen;
  try {
    chosen = parseToolsets(req.query.toolsets);
  } catch {
    chosen = parseToolsets(undefined);
  }
  const scopes = new Set<string>();
  for (const op of toolOperations(operations)) {
    if (op.scope && chosen.has(op.doc.toolset)) scopes.add(impliedRead(op.scope) ?? op.scope);
  }
  return [...scopes].sort().join(' ');
}

/** The WWW-Authenticate of a 403 for a tool that needs `needed`. */
export function insufficientScopeChallenge(auth: AuthContext, needed: string, resourceMetadataUrl: string): string {
  const scopes = [...new Set([...(auth.scopes ?? []), needed])].sort().join(' ');
  return `Bearer error="insufficient_scope", scope="${scopes}", resource_metadata="${resourceMetadataUrl}", error_description="this tool needs the ${needed} scope"`;
}
