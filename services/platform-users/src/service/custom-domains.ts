// Custom domains of white-label workspaces: connect one (the records to set come back), verify
// it against DNS, remove it; and, for the gateway, which workspace an active domain serves.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { randomBase62 } from '@voice/runtime/crypto';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import {
  CustomDomainSchema,
  type AddCustomDomainRequest,
  type CustomDomainService,
  type ResolveCustomDomainRequest,
} from '@voice/proto/voice/platform/v1/custom_domains';
import { checkDomainName } from '../domains/domain-name.js';
import type { DnsLookup } from '../domains/dns-lookup.js';
import { requiredRecords } from '../domains/records.js';
import type { CustomDomainRecord, CustomDomainStore } from '../store/store.js';

export interface CustomDomainDeps {
  store: CustomDomainStore;
  dns: DnsLookup;
  /** The host name custom domains CNAME to. */
  platformHost: string;
  now(): Date;
}

export class CustomDomainServiceImpl implements ServiceImpl<typeof CustomDomainService> {
  constructor(private readonly deps: CustomDomainDeps) {}

  async getCustomDomain(_request: unknown, context: HandlerContext) {
    return { domain: this.present(await this.load(context)) };
  }

  async addCustomDomain(request: AddCustomDomainRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const checked = checkDomainName(request.domain, this.deps.platformHost);
    if (!checked.ok) throw invalidRequest([{ field: 'domain', issue: checked.issue }]);
    const outcome = await this.deps.store.insert({
      workspaceId: caller.workspaceId,
      domain: checked.domain,
      token: randomBase62(32),
      status: 'pending_verification',
      missing: [],
      createdAt: this.deps.now().toISOString(),
      checkedAt: null,
      verifiedAt: null,
    });
    switch (outcome.kind) {
      case 'created':
        return { domain: this.present(outcome.record) };
      case 'workspace_has_domain':
        throw serviceError('conflict', 'this workspace already has a custom domain; remove it first to connect another');
      case 'domain_taken':
        throw serviceError('conflict', `${checked.domain} is connected to another workspace`);
    }
  }

  async verifyCustomDomain(_request: unknown, context: HandlerContext) {
    const current = await this.load(context);
    const missing = await this.deps.dns.missing(requiredRecords(current.domain, current.token, this.deps.platformHost));
    const checkedAt = this.deps.now().toISOString();
    // An active domain whose records later went missing goes back to pending: it would no longer reach us.
    const status = missing.length === 0 ? 'active' : 'pending_verification';
    const verifiedAt = status === 'active' ? (current.verifiedAt ?? checkedAt) : null;
    const stored = await this.deps.store.recordVerification(current.workspaceId, current.domain, { status, missing, checkedAt, verifiedAt });
    if (!stored) throw notFound('custom domain');
    return { domain: this.present(stored) };
  }

  async removeCustomDomain(_request: unknown, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const removed = await this.deps.store.remove(caller.workspaceId);
    if (!removed) throw notFound('custom domain');
    return { domain: removed.domain };
  }

  async resolveCustomDomain(request: ResolveCustomDomainRequest, context: HandlerContext) {
    internalCallerOf(context, 'only the platform resolves custom domains');
    const host = request.host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    const found = await this.deps.store.findActive(host);
    return { workspaceId: found?.workspaceId ?? '', domain: found?.domain ?? '' };
  }

  private async load(context: HandlerContext): Promise<CustomDomainRecord> {
    const caller = workspaceCallerOf(context);
    const record = await this.deps.store.get(caller.workspaceId);
    if (!record) throw notFound('custom domain');
    return record;
  }

  private present(record: CustomDomainRecord) {
    return create(CustomDomainSchema, {
      domain: record.domain,
      status: record.status,
      dnsRecords: requiredRecords(record.domain, record.token, this.deps.platformHost),
      missing: record.missing,
      createdAt: toTimestamp(record.createdAt),
      checkedAt: record.checkedAt ? toTimestamp(record.checkedAt) : undefined,
      verifiedAt: record.verifiedAt ? toTimestamp(record.verifiedAt) : undefined,
    });
  }
}
