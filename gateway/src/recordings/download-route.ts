// GET /recordings/{call_id}: the signed download addresses GET /calls/{id}/recording hands out. No
// bearer: the signature (constant-time) and the expiry decide, 403 otherwise. The file streams from
// the calls service's media endpoint through http-proxy-middleware, with the client's Range and a
// signed caller of the address's workspace; nothing else of the client's request travels inward.
import type { IncomingMessage } from 'node:http';
import type { Express, Request, Response } from 'express';
import { Code, ConnectError } from '@connectrpc/connect';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { callerHeader, requestIdHeader, type CallerSigner, type Principal } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import type { GatewayConfig } from '../config.js';
import { publicEnvelopeOf, sendError } from '../errors/error-handler.js';
import { HttpError, methodNotAllowed, rangeNotSatisfiable } from '../errors/http-error.js';
import { RecordingDownloadUrls, recordingsPath, type SignedRecording } from './download-urls.js';

export const recordingDownloadUrlsOf = (config: Pick<GatewayConfig, 'common' | 'recordings'>): RecordingDownloadUrls =>
  new RecordingDownloadUrls(config.common.internalSecret, config.recordings.urlTtlSeconds);

/** The only request headers that reach the media endpoint besides the signed caller. */
const forwardedRequestHeaders = new Set(['host', 'connection', 'range', 'if-range']);
const forwardedResponseHeaders = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'cache-control'];
const gatewayPrincipal: Principal = { type: 'internal', id: 'gateway', name: 'gateway' };

interface DownloadDeps {
  config: Pick<GatewayConfig, 'recordings'>;
  /** The same signer of addresses GET /calls/{id}/recording uses. */
  urls: RecordingDownloadUrls;
  signer: CallerSigner;
  logger: Logger;
}

export function registerRecordingDownloads(app: Express, deps: DownloadDeps): void {
  const { urls } = deps;
  const signedOf = (res: Response) => res.locals.signedRecording as SignedRecording;

  function fail(res: Response, error: unknown): void {
    const requestId = String(res.locals.requestId ?? '');
    const envelope = publicEnvelopeOf(error, requestId);
    if (envelope.status >= 500) deps.logger.error('recording download failed', { request_id: requestId, error });
    if (res.headersSent) res.destroy();
    else sendError(res, envelope);
  }

  /** The media endpoint's answer: the file (whole or a range) as it is, anything else as the API's error envelope. */
  function relay(answer: IncomingMessage, res: Response): void {
    const status = answer.statusCode ?? 502;
    if (status === 200 || status === 206) {
      const headers = Object.fromEntries(forwardedResponseHeaders.flatMap((name) => (answer.headers[name] === undefined ? [] : [[name, answer.headers[name]!]])));
      res.writeHead(status, headers);
      answer.pipe(res);
      return;
    }
    answer.resume();
    if (status === 404) return fail(res, new HttpError('not_found', 'the recording no longer exists'));
    if (status === 416) return fail(res, rangeNotSatisfiable(String(answer.headers['content-range'] ?? 'bytes */0')));
    fail(res, new Error(`the calls media endpoint answered ${status}`));
  }

  const proxy = createProxyMiddleware<Request, Response>({
    target: deps.config.recordings.mediaUrl,
    changeOrigin: true,
    selfHandleResponse: true,
    // The query carried the signature; the media endpoint takes the path only.
    pathRewrite: (path) => path.split('?')[0],
    on: {
      proxyReq: (proxyReq, _req, res) => {
        for (const name of proxyReq.getHeaderNames()) if (!forwardedRequestHeaders.has(name)) proxyReq.removeHeader(name);
        const { workspaceId } = signedOf(res);
        proxyReq.setHeader(callerHeader, deps.signer.sign({ workspaceId, principal: gatewayPrincipal, scopes: ['calls:read'] }));
        proxyReq.setHeader(requestIdHeader, String(res.locals.requestId ?? ''));
      },
      proxyRes: (answer, _req, res) => relay(answer, res),
      // The middleware also hands the error to express (next), whose error handler logs it.
      error: (error, _req, res) => {
        if (!('writeHead' in res)) return void res.destroy();
        if (res.headersSent) return void res.destroy();
        sendError(res, publicEnvelopeOf(new ConnectError('recordings are temporarily unavailable; retry shortly', Code.Unavailable, undefined, undefined, error), String(res.locals.requestId ?? '')));
      },
    },
  });

  const path = `${recordingsPath}/:callId`;
  app.get(path, (req, res, next) => {
    const signed = urls.verify(String(req.params.callId), req.query as Record<string, unknown>);
    if (!signed) return next(new HttpError('forbidden', 'the recording address is invalid or has expired'));
    res.locals.signedRecording = signed;
    next();
  }, proxy);
  app.all(path, (_req, _res, next) => next(methodNotAllowed('GET')));
}
