// A caller ID's stored form (SQLite's row and MongoDB's document but for the id) and its mapping to
// and from the record; the code only as its keyed hash.
import type { CallerIdRecord, CallerIdStatus } from '../store.js';

export interface StoredCallerId {
  workspace_id: string;
  phone_number: string;
  label: string;
  method: string;
  status: string;
  code_hash: string;
  code_expires_at: string;
  attempts: number;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export const storedCallerId = (c: CallerIdRecord): StoredCallerId => ({
  workspace_id: c.workspaceId,
  phone_number: c.phoneNumber,
  label: c.label,
  method: c.method,
  status: c.status,
  code_hash: c.codeHash,
  code_expires_at: c.codeExpiresAt,
  attempts: c.attempts,
  verified_at: c.verifiedAt,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const callerIdFromStored = (id: string, s: StoredCallerId): CallerIdRecord => ({
  id,
  workspaceId: s.workspace_id,
  phoneNumber: s.phone_number,
  label: s.label,
  method: s.method as CallerIdRecord['method'],
  status: s.status as CallerIdStatus,
  codeHash: s.code_hash,
  codeExpiresAt: s.code_expires_at,
  attempts: s.attempts,
  verifiedAt: s.verified_at,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});

/** The stored fields a checked code changes: verified, or one more wrong attempt (failed at the last). */
export function storedCodeOutcome(current: { attempts: number }, outcome: { kind: 'verified' } | { kind: 'wrong'; maxAttempts: number }, now: string) {
  if (outcome.kind === 'verified') return { status: 'verified', verified_at: now, updated_at: now };
  const attempts = current.attempts + 1;
  return { status: attempts >= outcome.maxAttempts ? 'failed' : 'pending', attempts, updated_at: now };
}
