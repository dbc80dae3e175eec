// Which tenant a Host names: an active custom domain, found through the platform-users service
// and named by identity, kept for a short while so a request costs no extra hop.
import type { CallerSigner } from '@voice/runtime/caller';
import type { Logger } from '@voice/runtime/logger';
import { gatewayCallOptionsFor } from '../auth/signed-caller.js';
import type { ServiceClients } from '../clients.js';
import type { Tenant } from './tenant-context.js';

/** A removed or newly verified domain takes effect within this time. */
export const tenantCacheMs = 30_000;
const maxCachedHosts = 1_000;

export class TenantDirectory {
  private readonly cache = new Map<string, { tenant: Tenant | undefined; until: number }>();

  constructor(
    private readonly clients: Pick<ServiceClients, 'customDomains' | 'identity'>,
    private readonly signer: CallerSigner,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tenant of an active custom domain, or undefined (not a custom domain, or the lookup failed). */
  async resolve(host: string, requestId: string): Promise<Tenant | undefined> {
    const kept = this.cache.get(host);
    if (kept && kept.until > this.now()) return kept.tenant;
    try {
      const tenant = await this.lookUp(host, requestId);
      this.keep(host, tenant);
      return tenant;
    } catch (error) {
      // Not kept: the next request asks again once the services answer.
      this.logger.warn('custom domain lookup failed; serving the platform', { host, error, request_id: requestId });
      return undefined;
    }
  }

  private async lookUp(host: string, requestId: string): Promise<Tenant | undefined> {
    const options = gatewayCallOptionsFor(requestId, this.signer);
    const { workspaceId, domain } = await this.clients.customDomains.resolveCustomDomain({ host }, options);
    if (!workspaceId) return undefined;
    const { workspace } = await this.clients.identity.getWorkspace({ id: workspaceId }, options);
    return { workspaceId, domain, publicUrl: `https://${domain}`, name: workspace?.name ?? domain };
  }

  private keep(host: string, tenant: Tenant | undefined): void {
    if (this.cache.size >= maxCachedHosts) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(host, { tenant, until: this.now() + tenantCacheMs });
  }
}
