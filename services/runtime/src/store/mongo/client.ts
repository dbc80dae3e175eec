// MongoDB connections: each service owns its own database, named `<prefix>-<service>`.
import { MongoClient, MongoServerError, type Db } from 'mongodb';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

export async function connectMongo(uri: string, databaseName: string): Promise<MongoHandle> {
  const client = new MongoClient(uri, { retryWrites: true, appName: databaseName });
  await client.connect();
  return { client, db: client.db(databaseName), close: () => client.close() };
}

export const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === 11000;
