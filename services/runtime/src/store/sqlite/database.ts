// Embedded SQLite for the default mode: one database file per service, WAL, real
// transactions, and numbered migrations applied once.
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { ensurePrivateDirectory, ensurePrivateFile, tightenExistingFiles } from '../../private-files.js';

export type SqliteDatabase = Database.Database;

/**
 * SQLite's page cache per connection, in KiB. Every service keeps its own database, so the single
 * process holds one cache per service: at SQLite's default of 2 MB each they filled with the data
 * the bench wrote and put ~45-75 MB on its peak RSS, fragmented in the allocator's heap. The
 * operating system's page cache keeps the files' hot pages anyway: 256 KiB each measured no
 * difference in requests per second or CPU per request on GET, PATCH, SMS and calls (BENCHMARKS.md).
 */
export const pageCacheKiB = 256;

export function openSqlite(file: string, migrations: readonly string[]): SqliteDatabase {
  if (file !== ':memory:') {
    ensurePrivateDirectory(dirname(file));
    // SQLite gives its -wal and -shm files the database file's mode: created 0600 first, they are too.
    ensurePrivateFile(file);
    tightenExistingFiles([`${file}-wal`, `${file}-shm`]);
  }
  const db = new Database(file);
  // First: two processes sharing a file (a service and its worker) may open it at the same moment.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; FULL also survives power loss at ~5x cost.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${pageCacheKiB}`);
  // The version is read under the write lock: of two processes migrating a new file at once, the
  // second waits and then finds nothing left to apply.
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number;
    migrations.slice(applied).forEach((sql) => db.exec(sql));
    // A file a newer build migrated further keeps its version: lowering it would make that build migrate again.
    if (applied < migrations.length) db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
  return db;
}

/** True when a SQLite error is a UNIQUE constraint violation. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Prepares each distinct SQL text once; preparing costs more than running a point query. */
export function statementCache(db: SqliteDatabase): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/**
 * Inserts `row` into `table`, a column for each of its keys (a mapper's stored form with its id);
 * answers how many rows it inserted. `ifAbsent` skips a row whose key (or any unique column) is taken instead of failing.
 */
export function insertRow(sql: (text: string) => Database.Statement, table: string, row: object, options: { ifAbsent?: boolean } = {}): number {
  const columns = Object.keys(row);
  const conflict = options.ifAbsent ? ' ON CONFLICT DO NOTHING' : '';
  return sql(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})${conflict}`).run(row).changes;
}
