// Signed, time-limited download addresses of call recordings: the runtime's Signer over the
// workspace, the call and the expiry, with a key derived from the internal secret for this purpose only.
import { Signer } from '@voice/runtime/signed-tokens';

export const recordingsPath = '/recordings';

export interface SignedRecording {
  workspaceId: string;
  callId: string;
  /** Unix seconds. */
  expires: number;
}

export class RecordingDownloadUrls {
  private readonly signer: Signer;

  constructor(internalSecret: Buffer, private readonly ttlSeconds: number) {
    this.signer = new Signer(internalSecret, 'voice-recordings:download-url');
  }

  /** The address of the call's recording from `baseUrl`, valid `ttlSeconds` from `now`. */
  sign(baseUrl: string, workspaceId: string, callId: string, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({ workspace_id: workspaceId, expires: String(expires), signature: this.signer.sign(signedText({ workspaceId, callId, expires })) });
    return { url: `${baseUrl}${recordingsPath}/${encodeURIComponent(callId)}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  /** The signed recording when the signature matches and it has not expired; undefined otherwise. */
  verify(callId: string, query: Record<string, unknown>, now = Date.now()): SignedRecording | undefined {
    const { workspace_id: workspaceId, expires, signature } = query;
    if (typeof workspaceId !== 'string' || typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return undefined;
    const signed = { workspaceId, callId, expires: Number(expires) };
    if (!this.signer.verify(signedText(signed), signature)) return undefined;
    return signed.expires * 1000 > now ? signed : undefined;
  }
}

const signedText = ({ workspaceId, callId, expires }: SignedRecording): string => `${workspaceId}\n${callId}\n${expires}`;
