// Custom domain claims in SQLite.
import { insertRow } from '@voice/runtime/store/sqlite';
import { missingAsJson, storedCustomDomain } from '../mapping/custom-domain.js';
import { hasLapsed } from '../store.js';
import { domainOf, type DomainRow } from './rows.js';
import type { CustomDomainRecord, CustomDomainStore, InsertDomainOutcome, VerificationOutcome, VerificationResult } from '../store.js';
import type { SqliteContext } from './context.js';

export function sqliteCustomDomainStore({ db, sql }: SqliteContext): CustomDomainStore {
  async function insert(record: CustomDomainRecord, now: string): Promise<InsertDomainOutcome> {
    return db.transaction((): InsertDomainOutcome => {
      const own = sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(record.workspaceId) as DomainRow | undefined;
      if (own && !hasLapsed(domainOf(own), now)) return { kind: 'workspace_has_domain' };
      if (sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active'").get(record.domain)) return { kind: 'domain_taken' };
      if (own) sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(record.workspaceId);
      insertRow(sql, 'custom_domains', { workspace_id: record.workspaceId, ...storedCustomDomain(record, missingAsJson) });
      return { kind: 'created', record };
    }).immediate();
  }

  async function get(workspaceId: string, now: string): Promise<CustomDomainRecord | undefined> {
    const row = sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
    const record = row ? domainOf(row) : undefined;
    return record && !hasLapsed(record, now) ? record : undefined;
  }

  async function recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<VerificationOutcome> {
    return db.transaction((): VerificationOutcome => {
      if (!sql('SELECT 1 FROM custom_domains WHERE workspace_id = ? AND domain = ?').get(workspaceId, domain)) {
        // Dropped by the verification of the workspace that got the domain, while this one was checking DNS.
        const activeElsewhere = result.status === 'active' && sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active'").get(domain);
        return activeElsewhere ? { kind: 'taken' } : { kind: 'gone' };
      }
      if (result.status === 'active') {
        if (sql("SELECT 1 FROM custom_domains WHERE domain = ? AND status = 'active' AND workspace_id <> ?").get(domain, workspaceId)) {
          sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(workspaceId);
          return { kind: 'taken' };
        }
        sql('DELETE FROM custom_domains WHERE domain = ? AND workspace_id <> ?').run(domain, workspaceId);
      }
      sql('UPDATE custom_domains SET status = ?, missing = ?, checked_at = ?, verified_at = ?, expires_at = ? WHERE workspace_id = ?').run(
        result.status,
        missingAsJson.encode(result.missing),
        result.checkedAt,
        result.verifiedAt,
        result.expiresAt,
        workspaceId,
      );
      const row = sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow;
      return { kind: 'recorded', record: domainOf(row) };
    }).immediate();
  }

  async function remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    return db.transaction(() => {
      const row = sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
      if (row) sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(workspaceId);
      return row ? domainOf(row) : undefined;
    }).immediate();
  }

  async function findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const row = sql("SELECT * FROM custom_domains WHERE domain = ? AND status = 'active'").get(domain) as DomainRow | undefined;
    return row ? domainOf(row) : undefined;
  }

  return { insert, get, recordVerification, remove, findActive };
}
