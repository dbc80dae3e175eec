// TelephonyStore on MongoDB: the service's own database; unique indexes on numbers, suppressed
// numbers per workspace and carrier message ids per connection; a transaction wherever writes
// must agree, the usage events that capture or release a send's hold entering the outbox inside
// it. (Databases from before billing held the sends keep two collections nobody reads any more,
// credit_views and reservations: see docs/operations.md.)
import { connectMongo, MongoOutbox, type MongoHandle } from '@voice/runtime/store/mongo';
import { ComposedTelephonyStore } from './composed.js';
import { MongoCampaignStore } from './mongo/campaigns.js';
import { MongoSendClaims } from './mongo/claims.js';
import { MongoConnectionStore } from './mongo/connections.js';
import { telephonyCollections, type Collections } from './mongo/documents.js';
import { createIndexes } from './mongo/indexes.js';
import { MongoNumberStore } from './mongo/numbers.js';
import { MongoSmsStore } from './mongo/sms.js';
import { MongoSuppressionStore } from './mongo/suppressions.js';

export class MongoTelephonyStore extends ComposedTelephonyStore {
  private constructor(
    private readonly handle: MongoHandle,
    collections: Collections,
    readonly outbox: MongoOutbox,
  ) {
    super({
      numbers: new MongoNumberStore(handle, collections, outbox),
      connections: new MongoConnectionStore(handle, collections),
      campaigns: new MongoCampaignStore(handle, collections),
      suppressions: new MongoSuppressionStore(handle, collections),
      sms: new MongoSmsStore(handle, collections, outbox, new MongoSendClaims(collections.claims)),
    });
  }

  static async connect(uri: string, databaseName: string): Promise<MongoTelephonyStore> {
    const handle = await connectMongo(uri, databaseName);
    const collections = telephonyCollections(handle.db);
    const outbox = new MongoOutbox(handle.db);
    await createIndexes(collections, outbox);
    return new MongoTelephonyStore(handle, collections, outbox);
  }

  /** Tests only: removes the whole database this store owns. */
  async dropDatabase(): Promise<void> {
    await this.handle.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
