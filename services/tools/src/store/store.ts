// The tools service's persistence, in its own words; SQLite and MongoDB adapters implement it
// and one contract suite (test/store.contract.ts) holds them to the same behaviour.
import type { JsonObject } from '@bufbuild/protobuf';
import { claimBinding, type IdempotencyClaim } from '@voice/runtime/idempotency';
import type { Page } from '@voice/runtime/validation';
import type { ToolType } from '@voice/contracts/tools';

export interface ToolRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  type: ToolType;
  /** Validated config with every secret sealed. */
  config: JsonObject;
  isActive: boolean;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface ToolChanges {
  name?: string;
  description?: string;
  config?: JsonObject;
  isActive?: boolean;
}

export interface ToolFilter {
  type?: ToolType;
  isActive?: boolean;
  /** Builtin tools whose config names this assistant. */
  assistantId?: string;
}


export type { IdempotencyClaim };

export type CreateOutcome =
  | { kind: 'created'; tool: ToolRecord }
  | { kind: 'name_taken' }
  | { kind: 'replayed'; tool: ToolRecord }
  | { kind: 'key_reused' };

export type UpdateOutcome =
  | { kind: 'updated'; tool: ToolRecord }
  | { kind: 'not_found' }
  | { kind: 'revision_conflict' }
  | { kind: 'name_taken' };

export interface ToolStore {
  create(tool: ToolRecord, claim?: IdempotencyClaim): Promise<CreateOutcome>;
  get(workspaceId: string, id: string): Promise<ToolRecord | undefined>;
  /** Newest first. */
  list(workspaceId: string, filter: ToolFilter, page: Page): Promise<{ tools: ToolRecord[]; total: number }>;
  /** Applies the changes only if the stored revision is still `expectedRevision`, and bumps it. */
  update(workspaceId: string, id: string, expectedRevision: number, changes: ToolChanges, now: string): Promise<UpdateOutcome>;
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes at most `limit` Idempotency-Key claims made before `createdBefore`, the oldest first; answers how many. */
  pruneIdempotencyClaims(createdBefore: string, limit: number): Promise<number>;
  close(): Promise<void>;
}

/** What a stored claim means for a new request under the same key; undefined when it does not bind. */
export function claimOutcome(
  existing: { fingerprint: string; tool: string; createdAt: string } | undefined | null,
  claim: IdempotencyClaim,
): CreateOutcome | undefined {
  const binding = claimBinding(existing, claim);
  return binding === 'replay' ? { kind: 'replayed', tool: JSON.parse(existing!.tool) as ToolRecord } : binding && { kind: binding };
}
