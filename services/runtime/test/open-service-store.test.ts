// openServiceStore: the adapter and the names a service's data is found under, as before the helper existed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommonConfig } from '../src/config/index.js';
import { openServiceStore } from '../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'open-service-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const adapters = {
  service: 'tools',
  sqlite: (file: string) => ({ adapter: 'sqlite', where: file }),
  mongo: async (uri: string, database: string) => ({ adapter: 'mongo', where: `${uri} ${database}` }),
};

test('without MONGODB_URI the store is SQLite in the data directory, named after the service', async () => {
  expect(await openServiceStore(readCommonConfig({ DATA_DIR: dir }), adapters)).toEqual({ adapter: 'sqlite', where: join(dir, 'tools.sqlite') });
});

test('with MONGODB_URI the store is MongoDB, in the database of the prefix and the service', async () => {
  const config = readCommonConfig({ DATA_DIR: dir, MONGODB_URI: 'mongodb://db.example:27017', MONGODB_DB_PREFIX: 'acme', VOICE_INTERNAL_SECRET: 'a'.repeat(64) });
  expect(await openServiceStore(config, adapters)).toEqual({ adapter: 'mongo', where: 'mongodb://db.example:27017 acme-tools' });
  expect(await openServiceStore(readCommonConfig({ DATA_DIR: dir, MONGODB_URI: 'mongodb://db.example:27017', VOICE_INTERNAL_SECRET: 'a'.repeat(64) }), adapters)).toMatchObject({
    where: 'mongodb://db.example:27017 voice-tools',
  });
});
