// What every part of the SQLite store works on: the database and its cache of prepared statements.
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '@voice/runtime/store/sqlite';

/** A prepared statement for `text`, prepared once per database. */
export type Sql = (text: string) => Database.Statement;

export interface SqliteContext {
  db: SqliteDatabase;
  sql: Sql;
}
