// Billing's transfer id of a platform transfer. With an Idempotency-Key it is derived from the
// platform and the key, so a retry is billing's replay and the key reused with another body is
// billing's conflict; two platforms using the same key never meet.
import { derivedId, newId } from '@voice/runtime/ids';

export function transferIdOf(platformWorkspaceId: string, idempotencyKey: string): string {
  return idempotencyKey ? derivedId('platform-transfer', platformWorkspaceId, idempotencyKey) : newId();
}
