// The platform-users service's persistence, in its own words; SQLite and MongoDB adapters
// implement it and one contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { DnsCheckResult } from '../domains/dns-lookup.js';

export type CustomDomainStatus = 'pending_verification' | 'active';

export interface CustomDomainRecord {
  workspaceId: string;
  /** Canonical name; unique across the platform. */
  domain: string;
  /** Published in the TXT record; proves control of the zone, so it is not a secret. */
  token: string;
  status: CustomDomainStatus;
  /** What the last verification did not find. */
  missing: DnsCheckResult[];
  createdAt: string;
  checkedAt: string | null;
  verifiedAt: string | null;
}

export interface VerificationResult {
  status: CustomDomainStatus;
  missing: DnsCheckResult[];
  checkedAt: string;
  verifiedAt: string | null;
}

export type InsertDomainOutcome =
  | { kind: 'created'; record: CustomDomainRecord }
  /** The workspace already has a domain (one per workspace). */
  | { kind: 'workspace_has_domain' }
  /** Another workspace holds this domain. */
  | { kind: 'domain_taken' };

export interface CustomDomainStore {
  insert(record: CustomDomainRecord): Promise<InsertDomainOutcome>;
  get(workspaceId: string): Promise<CustomDomainRecord | undefined>;
  /** Stores a verification of `domain`, unless the workspace removed or replaced it meanwhile. */
  recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<CustomDomainRecord | undefined>;
  remove(workspaceId: string): Promise<CustomDomainRecord | undefined>;
  /** The active domain with this canonical name, if any. */
  findActive(domain: string): Promise<CustomDomainRecord | undefined>;
  close(): Promise<void>;
}
