// TelephonyStore on MongoDB: the service's own database; unique indexes on numbers, suppressed
// numbers per workspace and carrier message ids per connection; a transaction wherever writes
// must agree, the usage events that capture or release a send's hold entering the outbox inside
// it. (Databases from before billing held the sends keep two collections nobody reads any more,
// credit_views and reservations: see docs/operations.md.)
import { connectMongo, MongoOutbox } from '@voice/runtime/store/mongo';
import type { TelephonyStore } from './store.js';
import { mongoCallLegStore } from './mongo/call-legs.js';
import { mongoCampaignStore } from './mongo/campaigns.js';
import { mongoConnectionStore } from './mongo/connections.js';
import { telephonyCollections } from './mongo/documents.js';
import { createIndexes } from './mongo/indexes.js';
import { mongoNumberStore } from './mongo/numbers.js';
import type { MongoContext } from './mongo/part.js';
import { mongoCallerIdStore } from './mongo/caller-ids.js';
import { mongoSipTrunkStore } from './mongo/sip-trunks.js';
import { mongoSmsStore } from './mongo/sms.js';
import { mongoSuppressionStore } from './mongo/suppressions.js';

/** Connects to the service's database and creates the indexes that are missing. */
export async function connectMongoTelephonyStore(uri: string, databaseName: string): Promise<TelephonyStore> {
  const handle = await connectMongo(uri, databaseName);
  const context: MongoContext = { handle, collections: telephonyCollections(handle.db), outbox: new MongoOutbox(handle.db) };
  await createIndexes(context.collections, context.outbox);
  return {
    ...mongoNumberStore(context),
    ...mongoConnectionStore(context),
    ...mongoSipTrunkStore(context),
    ...mongoCallerIdStore(context),
    ...mongoCampaignStore(context),
    ...mongoSuppressionStore(context),
    ...mongoSmsStore(context),
    ...mongoCallLegStore(context),
    outbox: context.outbox,
    close: () => handle.close(),
  };
}
