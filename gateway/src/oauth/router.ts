// The OAuth 2.0 endpoints outside /api/v1: discovery, registration, authorization, token and
// revocation, each limited per client address.
import express, { type Express } from 'express';
import type { CallerSigner } from '@voice/runtime/caller';
import type { ServiceClients } from '../clients.js';
import type { WindowCounter } from '@voice/runtime/counters';
import { Signer } from '@voice/runtime/signed-tokens';
import { bodyParserFailure } from '../errors/body-parser.js';
import { addressRateLimit } from './address-rate-limit.js';
import { registerAuthorizeRoutes } from './authorize.js';
import { CsrfGuard } from './csrf.js';
import { oauthDeps } from './deps.js';
import { LoginTickets } from './login-ticket.js';
import { oauthPaths, registerMetadataRoutes } from './metadata.js';
import { OAuthError, sendOAuthError } from './oauth-error.js';
import { registerRegistrationRoute } from './register.js';
import { resourcesOf } from './resources.js';
import { registerTokenRoutes } from './token.js';

export interface OAuthOptions {
  clients: ServiceClients;
  signer: CallerSigner;
  /** The page's CSRF tokens and login tickets are signed with keys derived from this secret. */
  secret: Buffer;
  counter: WindowCounter;
  limits: { register: number; authorize: number; token: number };
  publicUrl: () => string;
  /** The name on the sign-in pages: the tenant's on its own domain. */
  platformName: () => string;
}

const signerFor = (secret: Buffer, purpose: string): Signer => new Signer(secret, `voice-oauth:${purpose}`);

export function registerOAuthRoutes(app: Express, options: OAuthOptions): void {
  registerMetadataRoutes(app, options.publicUrl);
  const limit = (endpoint: keyof OAuthOptions['limits']) =>
    addressRateLimit({ endpoint, limit: options.limits[endpoint], counter: options.counter });
  const deps = oauthDeps({
    clients: options.clients,
    signer: options.signer,
    limits: { register: limit('register'), authorize: limit('authorize'), token: limit('token') },
    resources: () => resourcesOf(options.publicUrl()),
    publicUrl: options.publicUrl,
  });
  const router = express.Router();
  // Nothing an OAuth endpoint answers (pages, codes, tokens, errors) may be cached.
  router.use(Object.values(oauthPaths), (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  registerRegistrationRoute(router, deps);
  registerTokenRoutes(router, deps);
  registerAuthorizeRoutes(router, deps, {
    csrf: new CsrfGuard(signerFor(options.secret, 'csrf'), () => options.publicUrl().startsWith('https:')),
    tickets: new LoginTickets(signerFor(options.secret, 'login-ticket')),
    platformName: options.platformName,
  });
  // Body parser failures at these endpoints are OAuth errors, not API envelopes.
  router.use(((error, req, res, next) => {
    const failure = bodyParserFailure(error);
    if (!failure) return next(error);
    const registration = req.path === deps.paths.register;
    const message = failure.kind === 'malformed' ? (registration ? 'the body is not valid JSON' : 'the form body could not be decoded') : failure.message;
    sendOAuthError(res, new OAuthError(registration ? 'invalid_client_metadata' : 'invalid_request', message, failure.status));
  }) as express.ErrorRequestHandler);
  app.use(router);
}
