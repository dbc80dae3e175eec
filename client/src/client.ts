// The typed client: openapi-fetch over the types generated from the API's OpenAPI document, with the
// base URL and the bearer credential set once. Every method answers `{data}` or `{error}` typed by the
// operation's declared answers; `orThrow` turns the error side into a VoiceApiError.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

/** A bearer credential: an API key (`svc_…`) or OAuth access token (`svc_at_…`), or a function that gives the current one. */
export type Credential = string | (() => string | Promise<string>);

export interface VoiceClientOptions {
  /** The API's address including its version prefix, e.g. `https://voice.example.com/api/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` on every request; a function is asked again for each request (token refresh). */
  credential: Credential;
  /** Another fetch implementation (a proxy agent, a test double); the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers added to every request (e.g. `User-Agent`). */
  headers?: Record<string, string>;
}

export type VoiceClient = Client<paths>;

const versionPrefix = /\/api\/v\d+\/?$/;

/** A client of the REST API at `baseUrl`, authenticated with `credential`. */
export function createVoiceClient(options: VoiceClientOptions): VoiceClient {
  const baseUrl = URL.parse(options.baseUrl);
  if (!baseUrl) throw new TypeError(`baseUrl is not a URL: ${options.baseUrl}`);
  if (baseUrl.protocol !== 'https:' && baseUrl.protocol !== 'http:') throw new TypeError(`baseUrl must be an http(s) URL, not ${baseUrl.protocol}`);
  // A base URL without the version prefix would send every request to a path the API does not serve.
  if (!versionPrefix.test(baseUrl.pathname)) throw new TypeError(`baseUrl must end in the API's version prefix (/api/v1): ${options.baseUrl}`);
  const { credential } = options;
  if (typeof credential === 'string' && credential.length === 0) throw new TypeError('credential must not be empty');
  const client = createClient<paths>({
    baseUrl: baseUrl.href.replace(/\/$/, ''),
    headers: options.headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use({
    async onRequest({ request }) {
      const token = typeof credential === 'string' ? credential : await credential();
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}
