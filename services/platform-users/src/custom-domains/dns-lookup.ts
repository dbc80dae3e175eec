// Looks custom-domain records up with Node's resolver against the configured servers, and
// reports which expected records DNS does not hold.
import { promises as dns } from 'node:dns';
import type { DnsRecord } from '../domain/records.js';

export interface DnsCheckResult {
  expected: DnsRecord;
  /** What DNS answered for that name and type (empty when nothing). */
  found: string[];
}

export interface DnsLookup {
  /** The expected records DNS does not hold as expected; empty when all are in place. */
  missing(records: DnsRecord[]): Promise<DnsCheckResult[]>;
}

const canonicalName = (name: string): string => name.toLowerCase().replace(/\.$/, '');

export class ResolverDnsLookup implements DnsLookup {
  private readonly resolver: dns.Resolver;

  constructor(servers: string[], options: { timeoutMs?: number; tries?: number } = {}) {
    this.resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async missing(records: DnsRecord[]): Promise<DnsCheckResult[]> {
    const checks = await Promise.all(records.map(async (expected) => ({ expected, found: await this.answers(expected) })));
    return checks.filter(({ expected, found }) => !this.matches(expected, found));
  }

  private matches(expected: DnsRecord, found: string[]): boolean {
    return expected.type === 'CNAME'
      ? found.some((target) => canonicalName(target) === canonicalName(expected.value))
      : found.includes(expected.value);
  }

  /** The answers for one record's name and type; a name DNS does not know (or cannot answer for) has none. */
  private async answers(record: DnsRecord): Promise<string[]> {
    try {
      return record.type === 'CNAME'
        ? await this.resolver.resolveCname(record.name)
        : (await this.resolver.resolveTxt(record.name)).map((chunks) => chunks.join(''));
    } catch {
      return [];
    }
  }
}
