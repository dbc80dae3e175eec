// Billing's transfer id of a platform transfer. With an Idempotency-Key it is derived from the
// platform and the key, so a retry is billing's replay and the key reused with another body is
// billing's conflict; two platforms using the same key never meet.
import { sha256Hex } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';

/** A UUID-shaped id (RFC 9562 version 8: custom, here SHA-256 based). */
export function transferIdOf(platformWorkspaceId: string, idempotencyKey: string): string {
  if (!idempotencyKey) return newId();
  const hex = sha256Hex(`platform-transfer\0${platformWorkspaceId}\0${idempotencyKey}`);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
