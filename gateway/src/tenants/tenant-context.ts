// The tenant a request is served for: set once by the tenant middleware from the Host header,
// read wherever the public address or the platform's name is needed (metadata, sign-in pages).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Tenant {
  workspaceId: string;
  /** The custom domain's canonical name. */
  domain: string;
  /** https://<domain>: custom domains are served behind TLS. */
  publicUrl: string;
  /** The white-label workspace's name, shown where the platform's name would be. */
  name: string;
}

const requestTenant = new AsyncLocalStorage<Tenant>();

/** The tenant of the request being handled; undefined on the platform's own address. */
export const currentTenant = (): Tenant | undefined => requestTenant.getStore();

export const runAsTenant = <T>(tenant: Tenant, work: () => T): T => requestTenant.run(tenant, work);

/**
 * The user realm this request signs in to: a tenant's domain serves its white-label platform's
 * end-users, the platform's own address the root platform's realm (empty, as identity takes it).
 */
export const currentRealm = (): string => currentTenant()?.workspaceId ?? '';
