// The typed client (@voice/client) pointed at a test platform, with every answer it receives from
// /api/v1 checked against the document the platform serves, as platform.api does.
import { createVoiceClient, type Credential, type VoiceClient } from '@voice/client';
import { expectDocumented, prepareConformance } from './openapi-conformance.js';

/** A fetch that checks each answer against the served document before the client reads it. */
function documentedFetch(origin: string) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = `${url.pathname}${url.search}`;
    await prepareConformance(origin, path);
    const response = await fetch(request);
    const text = await response.clone().text();
    await expectDocumented(origin, { method: request.method, path, status: response.status, headers: response.headers, text });
    return response;
  };
}

/** A client of the platform at `origin` (its URL without /api/v1) with `credential`. */
export const voiceClientFor = (origin: string, credential: Credential): VoiceClient =>
  createVoiceClient({ baseUrl: `${origin}/api/v1`, credential, fetch: documentedFetch(origin) });
