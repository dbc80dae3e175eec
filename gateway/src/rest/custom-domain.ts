// /custom-domain: a white-label workspace's own domain (SPEC.md 4.3, API.md 5): connect it, read
// the DNS records to set, verify them, remove it. Settings scopes and the white_label feature.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import { emptyBodySchema } from '@voice/runtime/validation';
import type { CustomDomain } from '@voice/proto/voice/platform/v1/custom_domains';
import { dataOf, oneOf } from '@voice/contracts/responses';
import { addDomainBodySchema, customDomainSchema, type dnsRecordSchema, domainStatuses, recordTypes, removedDomainSchema } from '@voice/contracts/platform-users';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { toolHints } from './operation.js';

const presentRecord = (record: { type: string; name: string; value: string }): z.infer<typeof dnsRecordSchema> => ({
  type: oneOf(recordTypes, record.type),
  name: record.name,
  value: record.value,
});

export const presentCustomDomain = (domain: CustomDomain): z.infer<typeof customDomainSchema> => ({
  domain: domain.domain,
  status: oneOf(domainStatuses, domain.status),
  dns_records: domain.dnsRecords.map(presentRecord),
  missing: domain.missing.map((check) => ({ ...presentRecord(check.expected!), found: check.found })),
  created_at: toIso(domain.createdAt),
  checked_at: toIso(domain.checkedAt),
  verified_at: toIso(domain.verifiedAt),
  expires_at: toIso(domain.expiresAt),
});

export function registerCustomDomainRoutes(rest: RestRouter, deps: RestDeps): void {
  const domains = deps.clients.customDomains;
  const toolset = 'platform';

  rest.operation({
    method: 'get',
    path: '/custom-domain',
    scope: 'settings:read',
    feature: 'white_label',
    doc: {
      id: 'getCustomDomain',
      summary: 'The workspace’s custom domain, the DNS records it needs and what is missing',
      toolset,
      response: dataOf(customDomainSchema),
      mcp: { tool: 'get_custom_domain', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await domains.getCustomDomain({}, call.options);
      return { body: { data: presentCustomDomain(answer.domain!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/custom-domain',
    scope: 'settings:write',
    feature: 'white_label',
    body: addDomainBodySchema,
    doc: {
      id: 'addCustomDomain',
      summary: 'Connect a domain to the workspace; the answer lists the DNS records to set',
      description:
        'One domain per workspace (409 `conflict` while the workspace has one). A domain is claimed, not owned, until it is verified: any number of workspaces may claim the same domain while it is pending, each with its own TXT token, so an unverified claim never blocks the real owner. The first workspace to verify it (DNS holding its CNAME and its own TXT record) makes it `active` there, and every other claim to it is dropped (those workspaces then have no domain). A domain active in another workspace is 409 `conflict`. A pending claim lapses at `expires_at` (7 days after it was made by default, `VOICE_CUSTOM_DOMAIN_CLAIM_DAYS`), after which the workspace has no domain and may claim again.',
      toolset,
      status: 201,
      response: dataOf(customDomainSchema),
      mcp: { tool: 'add_custom_domain', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await domains.addCustomDomain({ domain: call.body.domain }, call.options);
      return { body: { data: presentCustomDomain(answer.domain!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/custom-domain/verify',
    scope: 'settings:write',
    feature: 'white_label',
    body: emptyBodySchema,
    doc: {
      id: 'verifyCustomDomain',
      summary: 'Check the domain’s DNS records now',
      description:
        'Takes no fields. The domain is `active` when DNS holds both records, otherwise `pending_verification` with `missing` saying what DNS answered; a verification that no longer finds them returns an active domain to pending (with a new `expires_at`). When another workspace verified the domain first, the answer is 409 `conflict` and this workspace\'s claim is dropped; a lapsed or dropped claim is 404 `not_found`.',
      toolset,
      response: dataOf(customDomainSchema),
      mcp: { tool: 'verify_custom_domain', annotations: toolHints.update },
    },
    handle: async (call) => {
      const answer = await domains.verifyCustomDomain({}, call.options);
      return { body: { data: presentCustomDomain(answer.domain!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/custom-domain',
    scope: 'settings:write',
    feature: 'white_label',
    doc: {
      id: 'removeCustomDomain',
      summary: 'Disconnect the workspace’s custom domain',
      description: 'A custom domain has no id: the answer names the domain removed.',
      toolset,
      response: removedDomainSchema,
      mcp: { tool: 'remove_custom_domain', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const answer = await domains.removeCustomDomain({}, call.options);
      return { body: { data: { domain: answer.domain, deleted: true as const } } };
    },
  });
}
