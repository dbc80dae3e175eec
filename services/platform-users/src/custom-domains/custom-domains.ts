// Custom domains of white-label workspaces: connect one (the records to set come back), verify
// it against DNS, remove it; and, for the gateway, which workspace an active domain serves.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { internalCallerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { randomBase62 } from '@voice/runtime/crypto';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import {
  CustomDomainSchema,
  type AddCustomDomainRequest,
  type ResolveCustomDomainRequest,
} from '@voice/proto/voice/platform/v1/custom_domains';
import { checkDomainName } from '../domain/domain-name.js';
import type { DnsLookup } from './dns-lookup.js';
import { requiredRecords } from '../domain/records.js';
import type { CustomDomainRecord, CustomDomainStore } from '../store/store.js';

export interface CustomDomainDeps {
  store: CustomDomainStore;
  dns: DnsLookup;
  /** The host name custom domains CNAME to. */
  platformHost: string;
  /** How long a claim may stay pending before it lapses (VOICE_CUSTOM_DOMAIN_CLAIM_DAYS). */
  claimDays: number;
  now(): Date;
}

const dayMs = 86_400_000;

export class CustomDomains {
  constructor(private readonly deps: CustomDomainDeps) {}

  async getCustomDomain(_request: unknown, context: HandlerContext) {
    return { domain: this.present(await this.load(context)) };
  }

  async addCustomDomain(request: AddCustomDomainRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const checked = checkDomainName(request.domain, this.deps.platformHost);
    if (!checked.ok) throw invalidRequest([{ field: 'domain', issue: checked.issue }]);
    const now = this.deps.now();
    const outcome = await this.deps.store.insert(
      {
        workspaceId: caller.workspaceId,
        domain: checked.domain,
        token: randomBase62(32),
        status: 'pending_verification',
        missing: [],
        createdAt: now.toISOString(),
        checkedAt: null,
        verifiedAt: null,
        expiresAt: this.claimExpiry(now),
      },
      now.toISOString(),
    );
    switch (outcome.kind) {
      case 'created':
        return { domain: this.present(outcome.record) };
      case 'workspace_has_domain':
        throw serviceError('conflict', 'this workspace already has a custom domain; remove it first to connect another');
      case 'domain_taken':
        throw serviceError('conflict', `${checked.domain} is verified and active for another workspace`);
    }
  }

  async verifyCustomDomain(_request: unknown, context: HandlerContext) {
    const current = await this.load(context);
    const missing = await this.deps.dns.missing(requiredRecords(current.domain, current.token, this.deps.platformHost));
    const now = this.deps.now();
    const checkedAt = now.toISOString();
    // An active domain whose records later went missing goes back to pending: it would no longer reach us.
    const status = missing.length === 0 ? 'active' : 'pending_verification';
    const verifiedAt = status === 'active' ? (current.verifiedAt ?? checkedAt) : null;
    // Pending again after being active, the claim gets a full period to be put right.
    const expiresAt = status === 'active' ? null : current.status === 'active' ? this.claimExpiry(now) : current.expiresAt;
    const outcome = await this.deps.store.recordVerification(current.workspaceId, current.domain, { status, missing, checkedAt, verifiedAt, expiresAt });
    switch (outcome.kind) {
      case 'recorded':
        return { domain: this.present(outcome.record) };
      case 'gone':
        throw notFound('custom domain');
      case 'taken':
        throw serviceError('conflict', `${current.domain} was verified by another workspace first; this workspace's claim to it is dropped`);
    }
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
    const record = await this.deps.store.get(caller.workspaceId, this.deps.now().toISOString());
    if (!record) throw notFound('custom domain');
    return record;
  }

  private claimExpiry(from: Date): string {
    return new Date(from.getTime() + this.deps.claimDays * dayMs).toISOString();
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
      expiresAt: record.expiresAt ? toTimestamp(record.expiresAt) : undefined,
    });
  }
}
