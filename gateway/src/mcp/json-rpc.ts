// JSON-RPC as /mcp speaks it: errors with our own messages (the SDK's McpError prefixes "MCP error
// -32602:" to the message, which clients prefix again), and the message rules the SDK leaves to us.
import type { RequestHandler, Response } from 'express';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

type RequestId = string | number | null;

/** An error a request handler throws: the SDK answers its code and message as they are. */
export const rpcError = (code: ErrorCode, message: string): Error & { code: ErrorCode } => Object.assign(new Error(message), { code });

export const sendRpcError = (res: Response, status: number, id: RequestId, code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
  res.status(status).set(headers).json({ jsonrpc: '2.0', id, error: { code, message } });

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id of a request, as far as one can be read; null otherwise (JSON-RPC 2.0, 5). */
export const requestIdOf = (body: unknown): RequestId => {
  const id = isPlainObject(body) ? body.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** A tools/call request's name, when the body is one; undefined otherwise. */
export const calledToolOf = (body: unknown): string | undefined =>
  isPlainObject(body) && body.method === 'tools/call' && isPlainObject(body.params) && typeof body.params.name === 'string' ? body.params.name : undefined;

/**
 * Refuses what MCP 2025-11-25 does not allow and the SDK would answer badly: a batch (removed from the
 * protocol in that revision) and tools/call parameters of the wrong shape (the SDK answers those with
 * -32603 and its validator's dump instead of -32602).
 */
export const messageRules: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  if (Array.isArray(body)) {
    sendRpcError(res, 400, null, ErrorCode.InvalidRequest, 'JSON-RPC batches are not supported: MCP 2025-11-25 removed batching; send one message per request');
    return;
  }
  if (!isPlainObject(body) || body.method !== 'tools/call') return next();
  const id = requestIdOf(body);
  const params = body.params;
  if (!isPlainObject(params)) return void sendRpcError(res, 200, id, ErrorCode.InvalidParams, 'params must be an object with the tool’s name and arguments');
  if (typeof params.name !== 'string') return void sendRpcError(res, 200, id, ErrorCode.InvalidParams, 'params.name must be the name of a tool (tools/list lists them)');
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return void sendRpcError(res, 200, id, ErrorCode.InvalidParams, `params.arguments must be an object of the tool’s input (its inputSchema), not ${Array.isArray(params.arguments) ? 'an array' : typeof params.arguments === 'object' ? 'null' : `a ${typeof params.arguments}`}`);
  }
  next();
};
