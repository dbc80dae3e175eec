// An SMS message's stored form and its mapping to and from the record. The adapters name the id and
// the two addresses their own way (SQLite cannot call a column `from`), so those travel apart.
import type { MessageRecord, MessageStatus } from '../store.js';

export interface StoredMessage {
  workspace_id: string;
  from_number_id: string;
  body: string;
  segments: number;
  encoding: string;
  credit_units: number;
  status: string;
  failure_reason: string;
  carrier_connection_id: string | null;
  carrier_message_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What each adapter keeps under names of its own. */
export type MessageKeys = Pick<MessageRecord, 'id' | 'from' | 'to'>;

export const storedMessage = (m: MessageRecord): StoredMessage => ({
  workspace_id: m.workspaceId,
  from_number_id: m.fromNumberId,
  body: m.body,
  segments: m.segments,
  encoding: m.encoding,
  credit_units: m.creditUnits,
  status: m.status,
  failure_reason: m.failureReason,
  carrier_connection_id: m.carrierConnectionId,
  carrier_message_id: m.carrierMessageId,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

export const messageFromStored = (keys: MessageKeys, s: StoredMessage): MessageRecord => ({
  id: keys.id,
  workspaceId: s.workspace_id,
  fromNumberId: s.from_number_id,
  from: keys.from,
  to: keys.to,
  body: s.body,
  segments: s.segments,
  encoding: s.encoding as MessageRecord['encoding'],
  creditUnits: s.credit_units,
  status: s.status as MessageStatus,
  failureReason: s.failure_reason,
  carrierConnectionId: s.carrier_connection_id,
  carrierMessageId: s.carrier_message_id,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});
