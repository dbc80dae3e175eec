// Connects to an MCP tool's server once and lists the tools it offers, every request through the egress guard.
import { performance } from 'node:perf_hooks';
import type { JsonObject } from '@bufbuild/protobuf';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolConfig } from '@voice/contracts/tools';
import { EgressRefused, guardedRequest, RequestFailed, type RequestFailureCode } from '@voice/runtime/egress';
import type { Egress } from '../runner.js';
import type { McpServerToolInfo, TestOutcome } from './outcome.js';

const defaultTimeoutMs = 10_000;
const maxResponseBytes = 4 * 1024 * 1024;
const maxPages = 50;
const nullBodyStatuses = new Set([204, 205, 304]);

export async function listMcpServerTools(config: McpToolConfig, egress: Egress): Promise<TestOutcome> {
  const timeoutMs = config.timeout_ms ?? defaultTimeoutMs;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const remaining = () => timeoutMs - (performance.now() - started);

  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    fetch: guardedFetch(egress, remaining),
    requestInit: { headers: authHeaders(config) },
  });
  const client = new Client({ name: 'voice-platform-tool-test', version: '1.0.0' });
  // The SDK's own per-request timer covers a server that accepts a request but never answers it.
  const requestOptions = () => ({ timeout: Math.max(1, Math.ceil(remaining())) });
  try {
    await client.connect(transport, requestOptions());
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, requestOptions());
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    const allowed = config.allowed_tools === undefined ? undefined : new Set(config.allowed_tools);
    return {
      kind: 'mcp',
      tools: tools.filter((tool) => allowed === undefined || allowed.has(tool.name)).map(toolInfo),
      durationMs: elapsed(),
    };
  } catch (error) {
    if (error instanceof EgressRefused) throw error;
    const code = failureCode(error);
    // guardedRequest logged its own failures; what the SDK found wrong is logged here.
    if (!(error instanceof RequestFailed)) egress.logger?.warn('MCP tool test failed', { reason: code, error });
    return { kind: 'failure', code, message: describe(error, code), durationMs: elapsed() };
  } finally {
    if (transport.sessionId !== undefined && remaining() > 0) {
      // Ending the session frees it on the server; the listing is complete whether or not this works.
      await transport.terminateSession().catch(() => undefined);
    }
    await client.close();
  }
}

function authHeaders(config: McpToolConfig): Record<string, string> {
  const value = config.auth_value_encrypted;
  if (value === undefined) return {};
  if (config.auth_type === 'bearer') return { Authorization: `Bearer ${value}` };
  if (config.auth_type === 'header' && config.auth_header_name) return { [config.auth_header_name]: value };
  return {};
}

/** A fetch for the SDK transport that sends everything through guardedRequest and buffers each answer. */
function guardedFetch(egress: Egress, remainingMs: () => number): FetchLike {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    // GET opens the server's standalone event stream, which stays open and so cannot be buffered; listing
    // tools never needs it, and 405 is how a server says it has none, which the SDK accepts.
    if (method === 'GET') return new Response(null, { status: 405 });
    const budget = remainingMs();
    if (budget <= 0) throw new RequestFailed('timeout', 'the MCP server did not answer in time');
    const body = init?.body ?? undefined;
    if (body !== undefined && typeof body !== 'string') throw new TypeError('the MCP transport sent a body that is not text');
    const response = await guardedRequest({
      method,
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body,
      timeoutMs: budget,
      policy: egress.policy,
      logger: egress.logger,
      // The SDK asks for 'manual' and follows same-origin redirects itself, back through this fetch.
      redirect: init?.redirect === 'manual' ? 'manual' : 'follow',
      maxRedirects: init?.redirect === 'error' ? 0 : 5,
      maxBodyBytes: maxResponseBytes,
      signal: init?.signal ?? undefined,
    });
    if (response.truncated) throw new RequestFailed('bad_response', `the MCP server sent more than ${maxResponseBytes} bytes`);
    return new Response(nullBodyStatuses.has(response.status) ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}

function toolInfo(tool: Tool): McpServerToolInfo {
  return {
    name: tool.name,
    description: tool.description ?? '',
    // Parsed from the server's JSON, so it is JSON; the copy drops the SDK's type for the generic one.
    inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as JsonObject,
  };
}

function failureCode(error: unknown): RequestFailureCode {
  if (error instanceof RequestFailed) return error.code;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'timeout';
  // Anything else went wrong in talking to the server: an HTTP error status, a bad message, a wrong protocol.
  return 'bad_response';
}

/** What the caller is told: our own words, and the HTTP status the server answered (401, 404, ...), never a library's message. */
function describe(error: unknown, code: RequestFailureCode): string {
  if (error instanceof RequestFailed) return error.message;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) return `the MCP server answered HTTP ${error.code}`;
  if (error instanceof McpError && error.code !== ErrorCode.RequestTimeout) return `the MCP server answered with an error (${error.code})`;
  return code === 'timeout' ? 'the MCP server did not answer in time' : "the MCP server's answer is not MCP";
}
