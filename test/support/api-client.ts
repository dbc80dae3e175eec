// A minimal REST client for tests that remembers every response body, so a suite can assert
// that no response ever carried a secret, and checks every answer from /api/v1 against the
// platform's OpenAPI document.
import { expectDocumented, prepareConformance } from './openapi-conformance.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (for malformed bodies); overrides body. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export class ApiClient {
  readonly transcript: string[] = [];

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = path.startsWith('/api/') || path.startsWith('/.') || path.startsWith('/healthz') || path.startsWith('/readyz') || path.startsWith('/docs') || path.startsWith('/webhooks/')
      ? `${this.baseUrl}${path}`
      : `${this.baseUrl}/api/v1${path}`;
    const sentPath = url.slice(this.baseUrl.length);
    await prepareConformance(this.baseUrl, sentPath);
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    await expectDocumented(this.baseUrl, { method, path: sentPath, status: response.status, headers: response.headers, text });
    this.transcript.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  get = (path: string, key?: string, options: RequestOptions = {}) => this.request('GET', path, { ...options, key });
  post = (path: string, key: string | undefined, body?: unknown, options: RequestOptions = {}) => this.request('POST', path, { ...options, key, body });
  patch = (path: string, key: string | undefined, body?: unknown, options: RequestOptions = {}) => this.request('PATCH', path, { ...options, key, body });
  delete = (path: string, key?: string) => this.request('DELETE', path, { key });
}

/** Asserts the error envelope: exactly {error: {code, message[, details]}}. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(0);
  expect(Object.keys(response.body)).toEqual(['error']);
}

/** The fields named in a 400's details. */
export const fieldsOf = (response: ApiResponse): string[] =>
  (response.body?.error?.details ?? []).map((detail: { field: string }) => detail.field);
