// The end-to-end files' MongoDB run: with VOICE_E2E_STORE=mongodb (and MONGODB_URI), every test
// platform keeps its data in MongoDB databases of its own (`<prefix>-<service>` under a prefix no
// other platform uses), dropped when it closes; otherwise each keeps it in SQLite files as usual.
import { randomBytes } from 'node:crypto';
import { newId } from '@voice/runtime/ids';
import { connectMongo } from '@voice/runtime/store/mongo';

export interface TestStore {
  /** What the platform's environment gets: nothing on SQLite. */
  env: Record<string, string>;
  /** Drops the platform's databases. */
  drop(): Promise<void>;
}

function readStore(): 'sqlite' | 'mongodb' {
  const value = process.env.VOICE_E2E_STORE;
  if (value === undefined || value === '' || value === 'sqlite') return 'sqlite';
  if (value !== 'mongodb') throw new Error(`VOICE_E2E_STORE must be sqlite or mongodb, not ${JSON.stringify(value)}`);
  if (!process.env.MONGODB_URI) throw new Error('VOICE_E2E_STORE=mongodb needs MONGODB_URI');
  return value;
}

export const testStoreKind = readStore();

/** The store of one test platform; `env` is what the test asked for (its own MONGODB_* win). */
export function testStore(env: Record<string, string>): TestStore {
  if (testStoreKind === 'sqlite' || env.MONGODB_URI !== undefined) return { env: {}, drop: async () => {} };
  const uri = process.env.MONGODB_URI!;
  const prefix = `e2e-${process.pid}-${newId().slice(0, 8)}`;
  return {
    // MongoDB requires the keys from the environment (nothing is generated into DATA_DIR).
    env: { MONGODB_URI: uri, MONGODB_DB_PREFIX: prefix, VOICE_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    drop: async () => {
      const handle = await connectMongo(uri, `${prefix}-identity`);
      try {
        // Every database the platform's services opened under the prefix, whichever services there are.
        const { databases } = await handle.client.db().admin().listDatabases({ nameOnly: true });
        for (const { name } of databases) if (name.startsWith(`${prefix}-`)) await handle.client.db(name).dropDatabase();
      } finally {
        await handle.close();
      }
    },
  };
}
