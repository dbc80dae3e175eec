// A hold's stored form, the same in both adapters (snake_case columns in SQLite, fields in MongoDB,
// beside the adapter's own key), and its record.
import type { HoldStatus } from '../../domain/holds.js';
import type { HoldRecord } from '../store.js';

export interface StoredHold {
  workspace_id: string;
  hold_id: string;
  status: string;
  held_credit_units: number;
  held_minute_units: number;
  captured_credit_units: number;
  captured_minute_units: number;
  credit_units_per_minute: number;
  kind: string;
  reference: string;
  description: string;
  fingerprint: string;
  capture_fingerprint: string | null;
  entry_id: string | null;
  expires_at: string;
  created_at: string;
  settled_at: string | null;
}

export const storedHold = (hold: HoldRecord): StoredHold => ({
  workspace_id: hold.workspaceId,
  hold_id: hold.holdId,
  status: hold.status,
  held_credit_units: hold.held.creditUnits,
  held_minute_units: hold.held.minuteUnits,
  captured_credit_units: hold.captured.creditUnits,
  captured_minute_units: hold.captured.minuteUnits,
  credit_units_per_minute: hold.creditUnitsPerMinute,
  kind: hold.kind,
  reference: hold.reference,
  description: hold.description,
  fingerprint: hold.fingerprint,
  capture_fingerprint: hold.captureFingerprint,
  entry_id: hold.entryId,
  expires_at: hold.expiresAt,
  created_at: hold.createdAt,
  settled_at: hold.settledAt,
});

export const holdFromStored = (row: StoredHold): HoldRecord => ({
  workspaceId: row.workspace_id,
  holdId: row.hold_id,
  status: row.status as HoldStatus,
  held: { creditUnits: row.held_credit_units, minuteUnits: row.held_minute_units },
  captured: { creditUnits: row.captured_credit_units, minuteUnits: row.captured_minute_units },
  creditUnitsPerMinute: row.credit_units_per_minute,
  kind: row.kind,
  reference: row.reference,
  description: row.description,
  fingerprint: row.fingerprint,
  captureFingerprint: row.capture_fingerprint,
  entryId: row.entry_id,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  settledAt: row.settled_at,
});
