// /custom-domain: a white-label workspace's own domain (SPEC.md 4.3, API.md 5): connect it, read
// the DNS records to set, verify them, remove it. Settings scopes and the white_label feature.
import { z } from 'zod';
import { toIso } from '@voice/runtime';
import type { CustomDomain } from '@voice/proto/voice/platform/v1/custom_domains';
import { requireFeature } from '../middleware/require-feature.js';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { parseBody } from './validate.js';

const addDomainBodySchema = z.strictObject({ domain: z.string().max(253, 'must be at most 253 characters') });

const presentRecord = (record: { type: string; name: string; value: string }) => ({ type: record.type, name: record.name, value: record.value });

export const presentCustomDomain = (domain: CustomDomain) => ({
  domain: domain.domain,
  status: domain.status,
  dns_records: domain.dnsRecords.map(presentRecord),
  missing: domain.missing.map((check) => ({ ...presentRecord(check.expected!), found: check.found })),
  created_at: toIso(domain.createdAt),
  checked_at: toIso(domain.checkedAt),
  verified_at: toIso(domain.verifiedAt),
});

export function registerCustomDomainRoutes(rest: RestRouter, deps: RestDeps): void {
  const domains = deps.clients.customDomains;
  const gates = [requireFeature('white_label')];

  rest.route('get', '/custom-domain', { scope: 'settings:read', gates }, async (_req, res) => {
    const answer = await domains.getCustomDomain({}, callOptions(deps, res));
    res.json({ data: presentCustomDomain(answer.domain!) });
  });

  rest.route('post', '/custom-domain', { scope: 'settings:write', gates }, async (req, res) => {
    const body = parseBody(addDomainBodySchema, req.body);
    const answer = await domains.addCustomDomain({ domain: body.domain }, callOptions(deps, res));
    res.status(201).json({ data: presentCustomDomain(answer.domain!) });
  });

  rest.route('post', '/custom-domain/verify', { scope: 'settings:write', gates }, async (_req, res) => {
    const answer = await domains.verifyCustomDomain({}, callOptions(deps, res));
    res.json({ data: presentCustomDomain(answer.domain!) });
  });

  rest.route('delete', '/custom-domain', { scope: 'settings:write', gates }, async (_req, res) => {
    const answer = await domains.removeCustomDomain({}, callOptions(deps, res));
    res.json({ data: { domain: answer.domain, deleted: true } });
  });
}
