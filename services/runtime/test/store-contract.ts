// Runs a service's store contract on every adapter: SQLite on a fresh file per test always, MongoDB
// on a fresh database per test when MONGODB_URI is set (otherwise the output says it did not run, and why).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mongoTestDatabases, mongoUriFor } from './mongo-databases.js';

/** Opens a store on storage of its own (a new file, a new database), empty. */
export type OpenStore<Store> = () => Promise<Store>;
/** Opens another store on the storage the last OpenStore call created: a second replica on one database. */
export type OpenSameStorage<Store> = () => Promise<Store>;

export interface StoreContract<Store> {
  /** The service, e.g. `identity`: names the suites, the temporary directory and the test databases. */
  name: string;
  /** The behaviour every adapter must have, written once (it opens a store per test and closes it). */
  contract: (open: OpenStore<Store>, openSameStorage: OpenSameStorage<Store>) => void;
  sqlite: (file: string) => Store | Promise<Store>;
  mongo: (uri: string, database: string) => Store | Promise<Store>;
  /** Tests of SQLite alone (files surviving a reopen, migrations): `file()` is a new path in the suite's directory. */
  sqliteOnly?: (file: () => string) => void;
}

export function runStoreContract<Store>(suite: StoreContract<Store>): void {
  describe(`${suite.name} store on SQLite`, () => {
    const dir = mkdtempSync(join(tmpdir(), `${suite.name}-store-`));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    let files = 0;
    const file = () => join(dir, `${files++}.sqlite`);
    let last = '';
    suite.contract(
      async () => suite.sqlite((last = file())),
      async () => suite.sqlite(last),
    );
    suite.sqliteOnly?.(file);
  });

  const uri = mongoUriFor(`The ${suite.name} store contract on MongoDB`);
  if (!uri) return;
  describe(`${suite.name} store on MongoDB`, () => {
    const databases = mongoTestDatabases(uri, `voice-test-${suite.name}`);
    afterAll(() => databases.dropAll());
    let last = '';
    suite.contract(
      async () => suite.mongo(uri, (last = databases.next())),
      async () => suite.mongo(uri, last),
    );
  });
}
