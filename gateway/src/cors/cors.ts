// CORS for browser apps on other origins: bearer tokens only, so no answer ever allows credentials
// (cookies); a preflight is answered here, before authentication, since browsers send it without the
// Authorization header. Public documents (OAuth metadata) are open to every origin.
import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error.js';
import { isAllowedOrigin, type AllowedOrigins } from './allowed-origins.js';

/** Request headers a browser app may send: the credential, JSON, and our own. */
const allowedHeaders = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'].join(', ');
/** Answer headers a browser app may read, besides the CORS-safelisted ones. */
const exposedHeaders = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed', 'WWW-Authenticate', 'Location'].join(', ');
const allowedMethods = 'GET, POST, PATCH, DELETE';
/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const preflightMaxAgeSeconds = 600;

export function cors(allowed: () => AllowedOrigins): RequestHandler {
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin === undefined) return next();
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    const origins = allowed();
    if (!isAllowedOrigin(origins, origin)) {
      // A plain request still reaches its handler (the browser withholds the answer); a preflight stops here.
      return preflight ? next(new HttpError('forbidden', `the origin ${origin} may not call this endpoint from a browser`)) : next();
    }
    res.setHeader('Access-Control-Allow-Origin', origins === 'any' ? '*' : origin);
    res.setHeader('Access-Control-Expose-Headers', exposedHeaders);
    if (!preflight) return next();
    res.setHeader('Access-Control-Allow-Methods', allowedMethods);
    res.setHeader('Access-Control-Allow-Headers', allowedHeaders);
    res.setHeader('Access-Control-Max-Age', String(preflightMaxAgeSeconds));
    res.status(204).end();
  };
}
