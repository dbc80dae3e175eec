// Call legs in MongoDB: each move of a leg and its CallLegChanged event are written in one
// transaction, the update conditional on the sequence it read, so racing reports of one leg apply
// one after the other or not at all.
import type { NewOutboxEvent } from '@voice/runtime/events';
import { inTransaction, isDuplicateKey } from '@voice/runtime/store/mongo';
import { advancedLeg, endStatuses, type LegChange } from '../../domain/call-legs.js';
import type { CallLegRecord, CallLegStore } from '../store.js';
import { callLegDocument, callLegRecord } from './documents.js';
import type { MongoContext } from './part.js';

export function mongoCallLegStore({ handle, collections, outbox }: MongoContext): CallLegStore {
  const legOfCall = async (workspaceId: string, callId: string) => {
    const found = await collections.callLegs.findOne({ workspace_id: workspaceId, call_id: callId });
    return found ? callLegRecord(found) : undefined;
  };
  const legById = async (id: string) => {
    const found = await collections.callLegs.findOne({ _id: id });
    return found ? callLegRecord(found) : undefined;
  };

  return {
    async insertLeg(leg: CallLegRecord, event: NewOutboxEvent | undefined) {
      try {
        await inTransaction(handle, async (session) => {
          await collections.callLegs.insertOne(callLegDocument(leg), { session });
          if (event) await outbox.add(event, session);
        });
        return { kind: 'created' as const, leg };
      } catch (error) {
        if (!isDuplicateKey(error) || leg.callId === null) throw error;
        const existing = await legOfCall(leg.workspaceId, leg.callId);
        if (!existing) throw error;
        return { kind: 'exists' as const, leg: existing };
      }
    },

    getLeg: legById,

    getLegOfCall: legOfCall,

    async getLegByCarrierCallId(carrierConnectionId: string | null, carrierCallId: string) {
      const found = await collections.callLegs.findOne({ carrier_connection_id: carrierConnectionId, carrier_call_id: carrierCallId }, { sort: { created_at: 1 } });
      return found ? callLegRecord(found) : undefined;
    },

    async attachCall(id: string, callId: string, sealedMediaParameters: string, now: string) {
      try {
        const attached = await collections.callLegs.findOneAndUpdate(
          { _id: id, call_id: null, status: { $nin: [...endStatuses] } },
          { $set: { call_id: callId, sealed_media_parameters: sealedMediaParameters, updated_at: now } },
          { returnDocument: 'after' },
        );
        return attached ? callLegRecord(attached) : undefined;
      } catch (error) {
        // Another leg of the workspace already has the call.
        if (isDuplicateKey(error)) return undefined;
        throw error;
      }
    },

    async recordCarrierCallId(id: string, carrierCallId: string, now: string) {
      await collections.callLegs.updateOne({ _id: id, carrier_call_id: null }, { $set: { carrier_call_id: carrierCallId, updated_at: now } });
      return legById(id);
    },

    async advanceLeg(id: string, change: LegChange, eventOf: (leg: CallLegRecord) => NewOutboxEvent | undefined) {
      return inTransaction(handle, async (session) => {
        const found = await collections.callLegs.findOne({ _id: id }, { session });
        const moved = found && advancedLeg(callLegRecord(found), change);
        if (!moved) return undefined;
        const { _id, ...stored } = callLegDocument(moved);
        const written = await collections.callLegs.updateOne({ _id, sequence: found.sequence }, { $set: stored }, { session });
        if (written.modifiedCount !== 1) return undefined;
        const event = eventOf(moved);
        if (event) await outbox.add(event, session);
        return moved;
      });
    },
  };
}
