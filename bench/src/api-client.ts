// A minimal JSON client for the platform's REST API, authenticated with the bench's root key.
export interface ApiAnswer {
  status: number;
  json: unknown;
}

export async function callApi(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** Fails with the answer in the message unless the status is the expected one. */
export async function expectApi(expected: number, baseUrl: string, apiKey: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const { status, json } = await callApi(baseUrl, apiKey, method, path, body);
  if (status !== expected) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}
