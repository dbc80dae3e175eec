// CustomDomainStore on embedded SQLite: one row per workspace, the domain unique platform-wide.
import type Database from 'better-sqlite3';
import { isUniqueViolation, openSqlite, statementCache, type SqliteDatabase } from '@voice/runtime';
import type { CustomDomainRecord, CustomDomainStore, InsertDomainOutcome, VerificationResult } from './store.js';

const migrations = [
  `CREATE TABLE custom_domains (
     workspace_id TEXT PRIMARY KEY,
     domain TEXT NOT NULL UNIQUE,
     token TEXT NOT NULL,
     status TEXT NOT NULL,
     missing TEXT NOT NULL,
     created_at TEXT NOT NULL,
     checked_at TEXT,
     verified_at TEXT
   );`,
];

interface DomainRow {
  workspace_id: string;
  domain: string;
  token: string;
  status: string;
  missing: string;
  created_at: string;
  checked_at: string | null;
  verified_at: string | null;
}

const fromRow = (row: DomainRow): CustomDomainRecord => ({
  workspaceId: row.workspace_id,
  domain: row.domain,
  token: row.token,
  status: row.status as CustomDomainRecord['status'],
  missing: JSON.parse(row.missing) as CustomDomainRecord['missing'],
  createdAt: row.created_at,
  checkedAt: row.checked_at,
  verifiedAt: row.verified_at,
});

export class SqliteCustomDomainStore implements CustomDomainStore {
  private readonly db: SqliteDatabase;
  private readonly sql: (text: string) => Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, migrations);
    this.sql = statementCache(this.db);
  }

  async insert(record: CustomDomainRecord): Promise<InsertDomainOutcome> {
    return this.db.transaction((): InsertDomainOutcome => {
      if (this.sql('SELECT 1 FROM custom_domains WHERE workspace_id = ?').get(record.workspaceId)) return { kind: 'workspace_has_domain' };
      try {
        this.sql(
          `INSERT INTO custom_domains (workspace_id, domain, token, status, missing, created_at, checked_at, verified_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(record.workspaceId, record.domain, record.token, record.status, JSON.stringify(record.missing), record.createdAt, record.checkedAt, record.verifiedAt);
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'domain_taken' };
        throw error;
      }
      return { kind: 'created', record };
    }).immediate();
  }

  async get(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    const row = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  async recordVerification(workspaceId: string, domain: string, result: VerificationResult): Promise<CustomDomainRecord | undefined> {
    this.sql('UPDATE custom_domains SET status = ?, missing = ?, checked_at = ?, verified_at = ? WHERE workspace_id = ? AND domain = ?')
      .run(result.status, JSON.stringify(result.missing), result.checkedAt, result.verifiedAt, workspaceId, domain);
    const record = await this.get(workspaceId);
    return record?.domain === domain ? record : undefined;
  }

  async remove(workspaceId: string): Promise<CustomDomainRecord | undefined> {
    return this.db.transaction(() => {
      const row = this.sql('SELECT * FROM custom_domains WHERE workspace_id = ?').get(workspaceId) as DomainRow | undefined;
      if (row) this.sql('DELETE FROM custom_domains WHERE workspace_id = ?').run(workspaceId);
      return row ? fromRow(row) : undefined;
    }).immediate();
  }

  async findActive(domain: string): Promise<CustomDomainRecord | undefined> {
    const row = this.sql("SELECT * FROM custom_domains WHERE domain = ? AND status = 'active'").get(domain) as DomainRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
