// How every service's embedded database is opened: WAL, NORMAL sync, foreign keys, a busy timeout
// and a bounded page cache (one cache per service database lives in the single process).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, pageCacheKiB } from '../src/store/sqlite/database.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-database-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a database is opened in WAL mode with its settings and a page cache of pageCacheKiB', () => {
  const db = openSqlite(join(dir, 'service.db'), ['CREATE TABLE items (id TEXT PRIMARY KEY)']);
  try {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('cache_size', { simple: true })).toBe(-pageCacheKiB);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
  } finally {
    db.close();
  }
});
