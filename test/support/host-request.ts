// A request to the gateway with the Host header a browser or client on another domain would send
// (fetch cannot set Host), for tenant domains served by the same gateway.
import http from 'node:http';
import { expectDocumented, prepareConformance } from './openapi-conformance.js';

export interface HostResponse {
  status: number;
  body: string;
}

export async function requestAs(
  baseUrl: string,
  host: string,
  method: string,
  path: string,
  options: { key?: string; json?: unknown } = {},
): Promise<HostResponse> {
  await prepareConformance(baseUrl, path);
  const answer = await send(baseUrl, host, method, path, options);
  await expectDocumented(baseUrl, { method, path, status: answer.status, headers: answer.headers, text: answer.body });
  return { status: answer.status, body: answer.body };
}

function send(
  baseUrl: string,
  host: string,
  method: string,
  path: string,
  options: { key?: string; json?: unknown },
): Promise<HostResponse & { headers: http.IncomingHttpHeaders }> {
  const url = new URL(baseUrl);
  const payload = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { host };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}
