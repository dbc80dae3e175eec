// What every write of an assistant shares: who wrote the version, and the stale-revision refusal.
import type { Caller } from '@voice/runtime/caller';
import { serviceError } from '@voice/runtime/errors';
import type { VersionAuthor } from '../store/store.js';

export const authorOf = (caller: Caller): VersionAuthor => ({ type: caller.principal.type, id: caller.principal.id, name: caller.principal.name });

export const revisionConflict = (current?: number) =>
  serviceError(
    'revision_conflict',
    current === undefined
      ? 'the assistant was changed by another request; read it again and retry with its revision'
      : `expected_revision is stale; the assistant is at revision ${current}`,
  );
