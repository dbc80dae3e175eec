// A wallet's stored form (SQLite's row and MongoDB's document but for the key, `workspace_id` or
// `_id`, and the issuer flag's type) and its record.
import type { StoredValues } from '@voice/runtime/store';
import type { WalletRecord } from '../store.js';

export interface StoredWallet<Flag> {
  credit_units: number;
  minute_units: number;
  /** Absent in MongoDB wallets written before holds existed: none open. */
  held_credit_units?: number;
  held_minute_units?: number;
  version: number;
  issuer: Flag;
  created_at: string;
  updated_at: string;
}

export const walletFromStored = <Flag>(workspaceId: string, stored: StoredWallet<Flag>, values: StoredValues<Flag, unknown>): WalletRecord => ({
  workspaceId,
  balance: { creditUnits: stored.credit_units, minuteUnits: stored.minute_units },
  held: { creditUnits: stored.held_credit_units ?? 0, minuteUnits: stored.held_minute_units ?? 0 },
  version: stored.version,
  issuer: values.isSet(stored.issuer),
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
