// A user's stored form (but for the id) and its mapping to and from the record.
import type { UserRecord } from '../store.js';

export interface StoredUser {
  /** Missing only on MongoDB users written before realms, until the next start assigns it (realm-migration.ts). */
  realm_id?: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

export const storedUser = (u: UserRecord): StoredUser => ({
  realm_id: u.realmId,
  email: u.email,
  name: u.name,
  password_hash: u.passwordHash,
  created_at: u.createdAt,
});

export const userFromStored = (id: string, s: StoredUser): UserRecord => ({
  id,
  realmId: s.realm_id ?? '',
  email: s.email,
  name: s.name,
  passwordHash: s.password_hash,
  createdAt: s.created_at,
});
