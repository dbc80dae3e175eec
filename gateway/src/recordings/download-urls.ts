// Signed, time-limited download addresses of call recordings: an HMAC-SHA256 over the workspace,
// the call and the expiry, with a key derived from the internal secret for this purpose only.
import { createHmac } from 'node:crypto';
import { constantTimeEqual, deriveKey } from '@voice/runtime/crypto';

export const recordingsPath = '/recordings';

export interface SignedRecording {
  workspaceId: string;
  callId: string;
  /** Unix seconds. */
  expires: number;
}

export class RecordingDownloadUrls {
  private readonly key: Buffer;

  constructor(internalSecret: Buffer, private readonly ttlSeconds: number) {
    this.key = deriveKey(internalSecret, 'voice-recordings:download-url');
  }

  /** The address of the call's recording from `baseUrl`, valid `ttlSeconds` from `now`. */
  sign(baseUrl: string, workspaceId: string, callId: string, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({ workspace_id: workspaceId, expires: String(expires), signature: this.mac({ workspaceId, callId, expires }) });
    return { url: `${baseUrl}${recordingsPath}/${encodeURIComponent(callId)}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  /** The signed recording when the signature matches and it has not expired; undefined otherwise. */
  verify(callId: string, query: Record<string, unknown>, now = Date.now()): SignedRecording | undefined {
    const { workspace_id: workspaceId, expires, signature } = query;
    if (typeof workspaceId !== 'string' || typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return undefined;
    const signed = { workspaceId, callId, expires: Number(expires) };
    if (!constantTimeEqual(signature, this.mac(signed))) return undefined;
    return signed.expires * 1000 > now ? signed : undefined;
  }

  private mac({ workspaceId, callId, expires }: SignedRecording): string {
    return createHmac('sha256', this.key).update(`${workspaceId}\n${callId}\n${expires}`).digest('hex');
  }
}
