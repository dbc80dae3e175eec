// /mcp: MCP Streamable HTTP (protocol 2025-11-25) with the official SDK, stateless: each POST is
// answered on its own, behind the same authentication, rate limit and plan gate (`mcp`) as REST.
// Tools are the API's operations; a failed call is a tool result with isError and the REST error.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import { authOf, type AuthContext } from '../auth/auth-context.js';
import { callOptionsOf } from '../auth/signed-caller.js';
import { methodNotAllowed } from '../errors/http-error.js';
import { publicEnvelopeOf } from '../errors/error-handler.js';
import { maxBodyBytes } from '../middleware/json-body.js';
import { featureRefusal, requireFeature } from '../middleware/require-feature.js';
import { scopeRefusal } from '../middleware/require-scope.js';
import type { Operation } from '../rest/operation.js';
import { offeredTools, parseToolsets, toolOperations, type ToolOperation } from './catalog.js';
import { calledToolOf, messageRules, requestIdOf, rpcError, sendRpcError } from './json-rpc.js';
import { insufficientScopeChallenge } from './scope-challenge.js';
import { inputSchemaOf, splitArguments } from './tool-input.js';

export const mcpPath = '/mcp';

export interface McpOptions {
  /** Authentication (with the MCP resource's metadata in its challenge) and the rate limit. */
  authenticated: RequestHandler[];
  operations: () => readonly Operation<any, any>[];
  signer: CallerSigner;
  /** The public address of this request (the tenant's on its domain): the only origin browsers may call from. */
  publicUrl: () => string;
  /** Where this request's MCP protected-resource metadata lives, named in challenges. */
  resourceMetadataUrl: () => string;
  logger: Logger;
}

/** A JSON-RPC error without id, as the transport answers refusals before any message is read. */
const rpcRefusal = (res: Response, status: number, message: string) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** DNS-rebinding defence (MCP 2025-11-25, transport security): a browser's Origin must be ours. */
const originGuard =
  (publicUrl: () => string): RequestHandler =>
  (req, res, next) => {
    const origin = req.get('origin');
    if (origin === undefined || origin === new URL(publicUrl()).origin) return next();
    rpcRefusal(res, 403, `Forbidden: origin ${origin} may not call this endpoint`);
  };

const outputSchemaOf = (op: ToolOperation) => {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(op.doc.response, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, type: 'object' as const };
};

/** What tools/list says of a tool. Operations are fixed once the app is built, so each is described once. */
const descriptors = new WeakMap<ToolOperation, Tool>();
const descriptorOf = (op: ToolOperation): Tool => {
  let descriptor = descriptors.get(op);
  if (!descriptor) {
    descriptor = {
      name: op.doc.mcp.tool,
      title: op.doc.summary,
      description: [op.doc.deprecated && `Deprecated: ${op.doc.deprecated}`, op.doc.summary, op.doc.description].filter(Boolean).join('\n\n'),
      inputSchema: inputSchemaOf(op),
      outputSchema: outputSchemaOf(op),
      annotations: { title: op.doc.summary, ...op.doc.mcp.annotations, openWorldHint: false },
    };
    descriptors.set(op, descriptor);
  }
  return descriptor;
};

const errorResult = (error: unknown, op: ToolOperation, call: { requestId: string; logger: Logger }): CallToolResult => {
  const envelope = publicEnvelopeOf(error, call.requestId);
  if (envelope.status >= 500) call.logger.error('MCP tool call failed', { request_id: call.requestId, tool: op.doc.mcp.tool, error });
  const body = { error: { code: envelope.code, message: envelope.message, ...(envelope.details?.length ? { details: envelope.details } : {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
};

/**
 * `tools` are the chosen toolsets' tools: tools/list offers those the caller may use; a call of one the
 * plan does not include is an isError result with the REST refusal (a missing scope never gets here:
 * it is a 403 challenge before the server is built).
 */
function mcpServer(tools: ToolOperation[], call: { auth: AuthContext; requestId: string; signer: CallerSigner; logger: Logger }): Server {
  const server = new Server({ name: 'voice-platform', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: offeredTools(tools, call.auth).map(descriptorOf) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const op = tools.find((tool) => tool.doc.mcp.tool === request.params.name);
    if (!op) throw rpcError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}; tools/list lists the tools of this endpoint`);
    const refusal = op.feature ? featureRefusal(call.auth, op.feature) : undefined;
    if (refusal) return errorResult(refusal, op, call);
    try {
      const input = splitArguments(op, request.params.arguments ?? {});
      const reply = await op.handle({ ...input, auth: call.auth, requestId: call.requestId, options: callOptionsOf(call.auth, call.requestId, call.signer) });
      return { content: [{ type: 'text', text: JSON.stringify(reply.body) }], structuredContent: reply.body as Record<string, unknown> };
    } catch (error) {
      return errorResult(error, op, call);
    }
  });
  return server;
}

export function registerMcpEndpoint(app: Express, options: McpOptions): void {
  let tools: ToolOperation[] | undefined;
  const handle = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const chosen = parseToolsets(req.query.toolsets);
      tools ??= toolOperations(options.operations());
      const auth = authOf(res);
      const inToolsets = tools.filter((op) => chosen.has(op.doc.toolset));
      const called = inToolsets.find((op) => op.doc.mcp.tool === calledToolOf(req.body));
      const missingScope = called?.scope ? scopeRefusal(auth, [called.scope]) : undefined;
      if (called?.scope && missingScope) {
        const challenge = insufficientScopeChallenge(auth, called.scope, options.resourceMetadataUrl());
        return void sendRpcError(res, 403, requestIdOf(req.body), ErrorCode.InvalidRequest, missingScope.message, { 'WWW-Authenticate': challenge });
      }
      const requestId = String(res.locals.requestId);
      const server = mcpServer(inToolsets, { auth, requestId, signer: options.signer, logger: options.logger });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  };
  const json = express.json({ limit: maxBodyBytes });
  app.post(mcpPath, originGuard(options.publicUrl), ...options.authenticated, requireFeature('mcp'), json, messageRules, handle);
  // Stateless: no server-initiated stream to open and no session to end.
  app.all(mcpPath, (_req, _res, next) => next(methodNotAllowed('POST')));
}
