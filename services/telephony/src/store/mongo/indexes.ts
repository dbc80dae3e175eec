// The MongoDB store's indexes, which every connect creates where they are missing.
import type { MongoOutbox } from '@voice/runtime/store/mongo';
import type { Collections } from './documents.js';

const newestFirst = { workspace_id: 1, created_at: -1, _id: -1 } as const;

export async function createIndexes(collections: Collections, outbox: MongoOutbox): Promise<void> {
  const { numbers, connections, campaigns, sipTrunks, callerIds, suppressions, messages, claims, earlyReports, callLegs } = collections;
  await numbers.createIndex({ number: 1 }, { unique: true, name: 'unique_number' });
  await numbers.createIndex(newestFirst, { name: 'numbers_newest_first' });
  await numbers.createIndex({ carrier_connection_id: 1 }, { name: 'numbers_by_connection' });
  await numbers.createIndex({ renews_at: 1 }, { name: 'numbers_by_renewal', partialFilterExpression: { renews_at: { $type: 'string' } } });
  // Bought numbers stored before fees existed are due at once (as the SQLite migration does).
  for await (const legacy of numbers.find({ source: 'marketplace', renews_at: { $exists: false } }, { projection: { created_at: 1 } })) {
    await numbers.updateOne({ _id: legacy._id, renews_at: { $exists: false } }, { $set: { renews_at: legacy.created_at, past_due_since: null } });
  }
  await connections.createIndex(newestFirst, { name: 'connections_newest_first' });
  await numbers.createIndex({ sip_trunk_id: 1 }, { name: 'numbers_by_sip_trunk', partialFilterExpression: { sip_trunk_id: { $type: 'string' } } });
  await sipTrunks.createIndex(newestFirst, { name: 'sip_trunks_newest_first' });
  await callerIds.createIndex({ workspace_id: 1, phone_number: 1 }, { unique: true, name: 'unique_caller_id_number' });
  await callerIds.createIndex(newestFirst, { name: 'caller_ids_newest_first' });
  await campaigns.createIndex(newestFirst, { name: 'campaigns_newest_first' });
  await campaigns.createIndex({ carrier_connection_id: 1 }, { name: 'campaigns_by_connection' });
  await suppressions.createIndex({ workspace_id: 1, number: 1 }, { unique: true, name: 'unique_suppressed_number' });
  await suppressions.createIndex(newestFirst, { name: 'suppressions_newest_first' });
  // A null connection (the platform's carrier) is a key value of its own, so it is a namespace too.
  await messages.createIndex(
    { carrier_connection_id: 1, carrier_message_id: 1 },
    { unique: true, partialFilterExpression: { carrier_message_id: { $type: 'string' } }, name: 'unique_carrier_message' },
  );
  await messages.createIndex(newestFirst, { name: 'messages_newest_first' });
  await messages.createIndex({ workspace_id: 1, status: 1, created_at: -1, _id: -1 }, { name: 'messages_by_status' });
  await messages.createIndex({ created_at: 1 }, { partialFilterExpression: { status: 'sending' }, name: 'messages_sending' });
  await claims.createIndex({ message_id: 1 }, { name: 'claims_by_message' });
  await claims.createIndex({ created_at: 1 }, { name: 'claims_by_time' });
  await earlyReports.createIndex({ received_at: 1 }, { name: 'early_reports_by_time' });
  // One leg per call; an inbound leg without its call yet is not indexed.
  await callLegs.createIndex({ workspace_id: 1, call_id: 1 }, { unique: true, partialFilterExpression: { call_id: { $type: 'string' } }, name: 'unique_leg_of_call' });
  await callLegs.createIndex({ carrier_connection_id: 1, carrier_call_id: 1 }, { partialFilterExpression: { carrier_call_id: { $type: 'string' } }, name: 'legs_by_carrier_call' });
  await outbox.ensureIndexes();
}
