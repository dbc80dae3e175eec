// SIP trunks in MongoDB. The routing lives on the numbers' sip_trunk_id; a trunk's writes and its
// numbers' routing change in one transaction (two racing for a number conflict on it, and the
// retried one sees it taken).
import type { ClientSession } from 'mongodb';
import { inTransaction } from '@voice/runtime/store/mongo';
import { definedFields, type Page } from '@voice/runtime/validation';
import { storedSipTrunkChanges } from '../mapping/sip-trunk.js';
import { routingRefusal } from '../rules.js';
import type { RoutingRefusal, SipTrunkChanges, SipTrunkRecord, SipTrunkStore } from '../store.js';
import { sipTrunkDocument, sipTrunkRecord, type SipTrunkDocument } from './documents.js';
import { findPage, type MongoContext } from './part.js';

export function mongoSipTrunkStore({ handle, collections }: MongoContext): SipTrunkStore {
  const { numbers, sipTrunks } = collections;

  /** The routed numbers of each trunk, in the order the numbers were added. */
  async function numbersOf(trunkIds: string[], session?: ClientSession): Promise<Map<string, string[]>> {
    const routed = new Map<string, string[]>(trunkIds.map((id) => [id, []]));
    if (trunkIds.length === 0) return routed;
    const docs = await numbers
      .find({ sip_trunk_id: { $in: trunkIds } }, { projection: { sip_trunk_id: 1 }, session })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    for (const doc of docs) routed.get(doc.sip_trunk_id!)?.push(doc._id);
    return routed;
  }

  async function withNumbers(doc: SipTrunkDocument, session?: ClientSession): Promise<SipTrunkRecord> {
    return sipTrunkRecord(doc, (await numbersOf([doc._id], session)).get(doc._id) ?? []);
  }

  /** Why the numbers cannot go through the trunk, or undefined when they can. */
  async function refusal(workspaceId: string, trunkId: string, numberIds: string[], session: ClientSession): Promise<RoutingRefusal | undefined> {
    if (numberIds.length === 0) return undefined;
    const docs = await numbers.find({ workspace_id: workspaceId, _id: { $in: numberIds } }, { projection: { sip_trunk_id: 1 }, session }).toArray();
    return routingRefusal(trunkId, numberIds, new Map(docs.map((doc) => [doc._id, doc.sip_trunk_id ?? null])));
  }

  async function route(trunkId: string, numberIds: string[], session: ClientSession): Promise<void> {
    await numbers.updateMany({ sip_trunk_id: trunkId, _id: { $nin: numberIds } }, { $set: { sip_trunk_id: null } }, { session });
    if (numberIds.length > 0) await numbers.updateMany({ _id: { $in: numberIds } }, { $set: { sip_trunk_id: trunkId } }, { session });
  }

  return {
    async insertSipTrunk(trunk: SipTrunkRecord, numberIds: string[], limit: number) {
      return inTransaction(handle, async (session): Promise<{ kind: 'created'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'limit_reached' }> => {
        if ((await sipTrunks.countDocuments({ workspace_id: trunk.workspaceId }, { session })) >= limit) return { kind: 'limit_reached' };
        const refused = await refusal(trunk.workspaceId, trunk.id, numberIds, session);
        if (refused) return refused;
        const doc = sipTrunkDocument(trunk);
        await sipTrunks.insertOne(doc, { session });
        await route(trunk.id, numberIds, session);
        return { kind: 'created', trunk: await withNumbers(doc, session) };
      });
    },

    async getSipTrunk(workspaceId: string, id: string) {
      const doc = await sipTrunks.findOne({ _id: id, workspace_id: workspaceId });
      return doc ? withNumbers(doc) : undefined;
    },

    async listSipTrunks(workspaceId: string, page: Page) {
      const { docs, total } = await findPage(sipTrunks, { workspace_id: workspaceId }, page);
      const routed = await numbersOf(docs.map((doc) => doc._id));
      return { trunks: docs.map((doc) => sipTrunkRecord(doc, routed.get(doc._id) ?? [])), total };
    },

    async updateSipTrunk(workspaceId: string, id: string, changes: SipTrunkChanges, now: string) {
      return inTransaction(handle, async (session): Promise<{ kind: 'updated'; trunk: SipTrunkRecord } | RoutingRefusal | { kind: 'not_found' }> => {
        if ((await sipTrunks.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1, session })) === 0) return { kind: 'not_found' };
        if (changes.numberIds) {
          const refused = await refusal(workspaceId, id, changes.numberIds, session);
          if (refused) return refused;
          await route(id, changes.numberIds, session);
        }
        const set = definedFields(storedSipTrunkChanges(changes, now));
        const updated = await sipTrunks.findOneAndUpdate({ _id: id, workspace_id: workspaceId }, { $set: set }, { session, returnDocument: 'after' });
        return { kind: 'updated', trunk: await withNumbers(updated!, session) };
      });
    },

    async deleteSipTrunk(workspaceId: string, id: string) {
      return inTransaction(handle, async (session) => {
        if ((await sipTrunks.countDocuments({ _id: id, workspace_id: workspaceId }, { limit: 1, session })) === 0) return 'not_found' as const;
        if ((await numbers.countDocuments({ sip_trunk_id: id }, { limit: 1, session })) > 0) return 'in_use' as const;
        await sipTrunks.deleteOne({ _id: id }, { session });
        return 'deleted' as const;
      });
    },
  };
}
