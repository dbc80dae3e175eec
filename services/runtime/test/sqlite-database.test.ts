// How every service's embedded database is opened: WAL, NORMAL sync, foreign keys, a busy timeout
// and a bounded page cache (one cache per service database lives in the single process).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

/**
 * A service and its worker (campaigns and the dialer, webhooks and delivery) open one file, and the
 * cluster starts them at once. Each child loads the built openSqlite (`npm test` builds first), waits
 * for the same go signal, then opens the new file with the same migrations.
 */
function openConcurrently(file: string, migrations: readonly string[], processes: number): Promise<{ code: number | null; stderr: string }[]> {
  const go = join(dir, 'go');
  const builtDatabase = resolve(__dirname, '../dist/src/store/sqlite/database.js');
  const script = `
    const { existsSync } = require('node:fs');
    const { openSqlite } = require(${JSON.stringify(builtDatabase)});
    const migrations = ${JSON.stringify(migrations)};
    process.send('loaded');
    const wait = () => (existsSync(${JSON.stringify(go)}) ? open() : setTimeout(wait, 1));
    const open = () => openSqlite(${JSON.stringify(file)}, migrations).close();
    wait();`;
  const children = Array.from({ length: processes }, () => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] }));
  const loaded = children.map((child) => new Promise((ready) => child.once('message', ready)));
  const exits = children.map(
    (child) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => done({ code, stderr }));
      }),
  );
  return Promise.all(loaded).then(() => {
    writeFileSync(go, '');
    return Promise.all(exits);
  });
}

test('processes that open a new database at once apply its migrations once between them, and each opens it', async () => {
  const file = join(dir, 'shared.db');
  const migrations = Array.from({ length: 50 }, (_, i) => `CREATE TABLE t${i} (id TEXT PRIMARY KEY)`);
  const exits = await openConcurrently(file, migrations, 4);
  expect(exits).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stderr: '' })));
  const db = openSqlite(file, migrations);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(50);
    expect((db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n).toBe(50);
  } finally {
    db.close();
  }
}, 30_000);

test('a file a newer build migrated further keeps its version when an older build opens it', () => {
  const file = join(dir, 'newer.db');
  const migrations = ['CREATE TABLE items (id TEXT PRIMARY KEY)', 'CREATE TABLE tags (id TEXT PRIMARY KEY)'];
  openSqlite(file, migrations).close();
  openSqlite(file, migrations.slice(0, 1)).close();
  const db = openSqlite(file, migrations);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(2);
  } finally {
    db.close();
  }
});
