// What the OAuth endpoints share: identity client, signed internal calls, paths, limits and
// the one error translation for every OAuth handler.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import { gatewayCallOptions } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import { oauthPaths } from './metadata.js';
import { oauthErrorOf, sendOAuthError } from './oauth-error.js';
import type { Resources } from './resources.js';

export interface OAuthDeps {
  clients: ServiceClients;
  paths: typeof oauthPaths;
  limits: { register: RequestHandler; authorize: RequestHandler; token: RequestHandler };
  resources: () => Resources;
  publicUrl: () => string;
  /** Options for an identity call made by the gateway itself (no workspace). */
  internalCall(res: Response): { headers: Record<string, string> };
  /** Runs a JSON-answering OAuth handler; identity's refusals become RFC 6749 errors. */
  handle(handler: (req: Request, res: Response) => Promise<void>): RequestHandler;
}

export function oauthDeps(options: {
  clients: ServiceClients;
  signer: CallerSigner;
  limits: OAuthDeps['limits'];
  resources: () => Resources;
  publicUrl: () => string;
}): OAuthDeps {
  return {
    clients: options.clients,
    paths: oauthPaths,
    limits: options.limits,
    resources: options.resources,
    publicUrl: options.publicUrl,
    internalCall: (res) => gatewayCallOptions(res, options.signer),
    handle: (handler) => (req: Request, res: Response, next: NextFunction) => {
      handler(req, res).catch((error: unknown) => {
        const oauthError = oauthErrorOf(error);
        if (oauthError) return sendOAuthError(res, oauthError);
        next(error);
      });
    },
  };
}
