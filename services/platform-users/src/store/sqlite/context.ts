// What every part of the SQLite store works on: the database and its cache of prepared statements.
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';

export interface SqliteContext {
  db: SqliteDatabase;
  sql: (text: string) => Database.Statement;
}
