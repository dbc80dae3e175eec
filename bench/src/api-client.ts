// A minimal JSON client for the platform's REST API, authenticated with the bench's root key.
import { maxPageLimit } from '@voice/runtime/validation';

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

/**
 * Every item of a list endpoint (`path` without a query), page after page until a short page. A
 * list that grows while it is read (newest first) pushes items to later pages: an item may come
 * twice, never not at all, so a caller that must count each once keeps them by id.
 */
export async function* listAll<T>(baseUrl: string, apiKey: string, path: string): AsyncGenerator<T> {
  for (let offset = 0; ; offset += maxPageLimit) {
    const page = (await expectApi(200, baseUrl, apiKey, 'GET', `${path}?limit=${maxPageLimit}&offset=${offset}`)) as { data: T[] };
    yield* page.data;
    if (page.data.length < maxPageLimit) return;
  }
}
