// A request to the gateway with the Host header a browser or client on another domain would send
// (fetch cannot set Host), for tenant domains served by the same gateway.
import http from 'node:http';

export interface HostResponse {
  status: number;
  body: string;
}

export function requestAs(
  baseUrl: string,
  host: string,
  method: string,
  path: string,
  options: { key?: string; json?: unknown } = {},
): Promise<HostResponse> {
  const url = new URL(baseUrl);
  const payload = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { host };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}
