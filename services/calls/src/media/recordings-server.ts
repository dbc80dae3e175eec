// The calls service's internal media endpoint: an HTTP/1.1 listener serving GET /recordings/{call_id}
// for the workspace of the signed caller (x-voice-caller), with byte ranges. The gateway's signed
// download URL is proxied here; nothing answers without a valid signed caller naming a workspace.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { callerHeader, requestIdHeader, type CallerSigner } from '@voice/runtime/caller';
import { isUuid } from '@voice/runtime/ids';
import type { Logger } from '@voice/runtime/logger';
import { listenOn } from '@voice/runtime/server';
import type { CallStore } from '../store/store.js';
import { byteRangeOf } from './byte-range.js';

export interface RecordingsServer {
  url: string;
  close(): Promise<void>;
}

const recordingPath = /^\/recordings\/([^/?]+)$/;

export async function startRecordingsServer(options: { host: string; port: number; store: CallStore; signer: CallerSigner; logger: Logger }): Promise<RecordingsServer> {
  const { store, signer, logger } = options;

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0]!;
    const match = recordingPath.exec(path);
    if (!match) return end(response, 404);
    if (request.method !== 'GET' && request.method !== 'HEAD') return end(response, 405, { allow: 'GET, HEAD' });
    const caller = signer.verify(headerOf(request, callerHeader) ?? null, headerOf(request, requestIdHeader) ?? '');
    if (!caller?.workspaceId) return end(response, 401);
    const callId = match[1]!;
    const call = isUuid(callId) ? await store.getCall(caller.workspaceId, callId) : undefined;
    if (!call?.hasRecording) return end(response, 404);
    const whole = await store.describeRecording(call.id);
    if (!whole) return end(response, 404);
    const range = byteRangeOf(headerOf(request, 'range'), whole.sizeBytes);
    const common = { 'accept-ranges': 'bytes', 'content-type': whole.contentType, 'cache-control': 'private, no-store' };
    if (range.kind === 'unsatisfiable') return end(response, 416, { ...common, 'content-range': `bytes */${whole.sizeBytes}` });
    const [start, last] = range.kind === 'partial' ? [range.start, range.end] : [0, whole.sizeBytes - 1];
    const headers = { ...common, 'content-length': String(Math.max(0, last - start + 1)) };
    if (range.kind === 'partial') response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${last}/${whole.sizeBytes}` });
    else response.writeHead(200, headers);
    if (request.method === 'HEAD' || whole.sizeBytes === 0) return void response.end();
    const recording = await store.openRecording(call.id, { start, end: last });
    if (!recording) return void response.destroy();
    await pipeline(recording.body, response);
  }

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      logger.error('recording could not be served', { request_id: headerOf(request, requestIdHeader), error });
      if (!response.headersSent) end(response, 500);
      else response.destroy();
    });
  });
  const { port, url } = await listenOn(server, options.port, options.host);
  logger.info('recordings listening', { port, host: options.host });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An answer without a body: the gateway turns the status into its error envelope. */
function end(response: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-length': '0' });
  response.end();
}
