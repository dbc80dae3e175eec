// A SIP trunk's stored form (SQLite's row and MongoDB's document but for the id) and its mapping to
// and from the record; the password stays sealed. The routed numbers live on the numbers.
import type { SipTransportName, SipTrunkChanges, SipTrunkDirection, SipTrunkRecord } from '../store.js';

export interface StoredSipTrunk {
  workspace_id: string;
  name: string;
  address: string;
  transport: string;
  direction: string;
  username: string;
  sealed_password: string | null;
  created_at: string;
  updated_at: string;
}

export const storedSipTrunk = (t: SipTrunkRecord): StoredSipTrunk => ({
  workspace_id: t.workspaceId,
  name: t.name,
  address: t.address,
  transport: t.transport,
  direction: t.direction,
  username: t.username,
  sealed_password: t.sealedPassword,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
});

export const sipTrunkFromStored = (id: string, s: StoredSipTrunk, numberIds: string[]): SipTrunkRecord => ({
  id,
  workspaceId: s.workspace_id,
  name: s.name,
  address: s.address,
  transport: s.transport as SipTransportName,
  direction: s.direction as SipTrunkDirection,
  username: s.username,
  sealedPassword: s.sealed_password,
  numberIds,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});

/** The stored fields a change sets (undefined: left as it is), with the time of the change. */
export const storedSipTrunkChanges = (changes: SipTrunkChanges, now: string): Partial<StoredSipTrunk> => ({
  name: changes.name,
  address: changes.address,
  transport: changes.transport,
  direction: changes.direction,
  username: changes.username,
  sealed_password: changes.sealedPassword,
  updated_at: now,
});
