// A custom domain claim's stored form (SQLite's row and MongoDB's document but for the workspace id,
// which keys both) and its mapping to and from the record. What verification did not find is JSON
// text in SQLite and an array in MongoDB: the adapter's `missing` codec says which.
import type { CustomDomainRecord } from '../store.js';

export interface MissingCodec<Stored> {
  encode(missing: CustomDomainRecord['missing']): Stored;
  decode(stored: Stored): CustomDomainRecord['missing'];
}

export const missingAsJson: MissingCodec<string> = {
  encode: (missing) => JSON.stringify(missing),
  decode: (stored) => JSON.parse(stored) as CustomDomainRecord['missing'],
};

export const missingAsIs: MissingCodec<CustomDomainRecord['missing']> = { encode: (missing) => missing, decode: (stored) => stored };

export interface StoredCustomDomain<Missing> {
  domain: string;
  token: string;
  status: string;
  missing: Missing;
  created_at: string;
  checked_at: string | null;
  verified_at: string | null;
  /** Absent on MongoDB documents written before claims lapsed: they never do. */
  expires_at?: string | null;
}

export const storedCustomDomain = <Missing>(r: CustomDomainRecord, codec: MissingCodec<Missing>): StoredCustomDomain<Missing> => ({
  domain: r.domain,
  token: r.token,
  status: r.status,
  missing: codec.encode(r.missing),
  created_at: r.createdAt,
  checked_at: r.checkedAt,
  verified_at: r.verifiedAt,
  expires_at: r.expiresAt,
});

export const customDomainFromStored = <Missing>(workspaceId: string, s: StoredCustomDomain<Missing>, codec: MissingCodec<Missing>): CustomDomainRecord => ({
  workspaceId,
  domain: s.domain,
  token: s.token,
  status: s.status as CustomDomainRecord['status'],
  missing: codec.decode(s.missing),
  createdAt: s.created_at,
  checkedAt: s.checked_at,
  verifiedAt: s.verified_at,
  expiresAt: s.expires_at ?? null,
});
