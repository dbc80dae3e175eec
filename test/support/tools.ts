// Tool payloads shared by the Tools API suites.
export const secrets = {
  apiHeader: 'hdr-secret-7f3a9c',
  apiHeader2: 'hdr-secret-second-21bd',
  mcpToken: 'mcp-token-4e8d2b',
  sipHeader: 'sip-secret-9a1c55',
};

export const mask = '\u2022\u2022\u2022';

export const apiTool = (name = `lookup_${Math.random().toString(36).slice(2, 8)}`) => ({
  name,
  description: 'Looks up an order',
  type: 'api',
  config: {
    method: 'POST',
    url: 'https://orders.example.com/v1/orders/{order_id}',
    headers: { 'X-Api-Key': secrets.apiHeader },
    parameters: [
      { name: 'order_id', type: 'string', required: true, location: 'path', description: 'order number' },
      { name: 'verbose', type: 'boolean', location: 'query' },
    ],
    static_values: { source: 'voice' },
    response_mapping: { status: 'data.status' },
    timeout_ms: 5000,
    async: false,
    filler_phrase: 'One moment please',
    speak_after: false,
  },
});

export const mcpTool = (name = `mcp_${Math.random().toString(36).slice(2, 8)}`) => ({
  name,
  type: 'mcp',
  config: {
    url: 'https://mcp.example.com/mcp',
    auth_type: 'bearer',
    auth_value_encrypted: secrets.mcpToken,
    allowed_tools: ['search', 'book'],
    tool_options: { book: { cancellable: true, on_duplicate: 'replace', report_progress: true } },
    timeout_ms: 30000,
  },
});

export const builtinTool = (name = `transfer_${Math.random().toString(36).slice(2, 8)}`) => ({
  name,
  type: 'builtin',
  config: { type: 'call_transfer', destination: '+14155550123', sip_headers: { 'X-Account': secrets.sipHeader } },
});
