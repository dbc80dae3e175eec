// MongoDB connections: each service owns its own database, named `<prefix>-<service>`.
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { settledWithin } from '../../shutdown.js';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

export async function connectMongo(uri: string, databaseName: string): Promise<MongoHandle> {
  const client = new MongoClient(uri, { retryWrites: true, appName: databaseName });
  await client.connect();
  return {
    client,
    db: client.db(databaseName),
    // Closing ends the server's sessions first, which waits for a server that no longer answers
    // (a partitioned host: no reset, no timeout): let go after shutdownWaitMs, the process is stopping.
    close: async () => {
      await settledWithin(client.close());
    },
  };
}

export const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === 11000;
