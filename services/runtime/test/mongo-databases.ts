// Store contract suites on MongoDB: every test gets a database of its own (as every SQLite test gets
// a file of its own), so no test sees what another left behind; all of them are dropped at the end.
import { MongoClient } from 'mongodb';

export interface MongoTestDatabases {
  /** A database name no other test of this run uses: `<prefix>-<pid>-<n>`. */
  next(): string;
  /** Drops every database handed out. */
  dropAll(): Promise<void>;
}

export function mongoTestDatabases(uri: string, prefix: string): MongoTestDatabases {
  const names: string[] = [];
  return {
    next: () => {
      const name = `${prefix}-${process.pid}-${names.length}`;
      names.push(name);
      return name;
    },
    dropAll: async () => {
      const client = await MongoClient.connect(uri);
      try {
        for (const name of names.splice(0)) await client.db(name).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

/**
 * MONGODB_URI, for tests that need a MongoDB server; without it, the output says that `what` did not run and
 * why, and the caller registers nothing (CI sets it, so those tests run there).
 */
export function mongoUriFor(what: string): string | undefined {
  const uri = process.env.MONGODB_URI;
  if (!uri) console.info(`${what}: not run, MONGODB_URI is not set (no MongoDB server on this machine).`);
  return uri || undefined;
}
