// Serves a white-label tenant on its own domain: a request whose Host is an active custom domain
// runs as that tenant, so every public address and the platform's name come out as the tenant's.
import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { runAsTenant } from '../tenants/tenant-context.js';
import type { TenantDirectory } from '../tenants/tenant-directory.js';

/** Hosts that can never be a custom domain: the platform's own, addresses, localhost. */
const isPlatformHost = (host: string, platformHost: () => string): boolean =>
  host === platformHost() || isIP(host) !== 0 || host === 'localhost' || !host.includes('.');

export const tenantHost = (directory: TenantDirectory, platformHost: () => string): RequestHandler =>
  (req, res, next) => {
    const host = (req.hostname ?? '').toLowerCase().replace(/\.$/, '');
    if (!host || isPlatformHost(host, platformHost)) return next();
    directory.resolve(host, String(res.locals.requestId)).then(
      (tenant) => (tenant ? runAsTenant(tenant, () => next()) : next()),
      next,
    );
  };
