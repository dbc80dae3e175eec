// The pages a link with a token opens (an invitation, an e-mail sender's confirmation): the token is the
// only proof, so a token of the wrong shape and one the service does not know get the same page, and a
// failure the page cannot explain is logged and shown as "try again".
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@voice/runtime/logger';
import { envelopeOf } from '../../errors/error-handler.js';
import { sendPage } from './html.js';
import { errorPage } from './pages.js';

export interface TokenPageOptions {
  tokenPattern: RegExp;
  /** The page of a token that names nothing (or nothing any more). */
  unknown: (res: Response) => void;
  platformName: () => string;
  /** What the page is, in the log line of an unexplained failure. */
  what: string;
  logger?: Logger;
}

/** Runs `work` for a well-shaped token; a service's not_found is the unknown page. */
export const tokenPage =
  (options: TokenPageOptions) =>
  (work: (req: Request, res: Response, token: string) => Promise<void>): RequestHandler =>
  (req, res) => {
    const token = String(req.params.token);
    if (!options.tokenPattern.test(token)) return options.unknown(res);
    work(req, res, token).catch((error: unknown) => {
      // The API's own reading of the failure; the page says only not found, or try again.
      const envelope = envelopeOf(error);
      if (envelope?.code === 'not_found') return options.unknown(res);
      if (!envelope || envelope.status >= 500) options.logger?.error(`${options.what} failed`, { request_id: res.locals.requestId, method: req.method, error });
      sendPage(res, envelope?.status === 503 ? 503 : 500, errorPage(options.platformName(), 'Something went wrong', 'Please try again in a moment.'));
    });
  };
