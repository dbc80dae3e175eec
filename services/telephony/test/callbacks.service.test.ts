// Carrier status callbacks at the service boundary (tier 2, the router transport): a signed callback whose status or verdict is
// not one the platform knows is a 400 naming the field, whatever the word (inherited object
// property names included), and changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { twilioSignature } from '../src/carriers/twilio.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { failure, sandboxCarriers, setup, type TelephonyTier } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-callbacks-'));
const store = openSqliteTelephonyStore(join(dir, 'callbacks.sqlite'));
const box = new SecretBox(randomBytes(32));
const publicUrl = 'https://voice.example';
const carriers = sandboxCarriers(box, { publicUrl });
const authToken = 'sandbox-token-0123456789';
const connectionId = newId();

let tier: TelephonyTier;

beforeAll(async () => {
  tier = await setup({ store, box, carriers });
  const at = new Date().toISOString();
  await store.insertConnection({
    id: connectionId,
    workspaceId: newId(),
    name: 'sandbox',
    provider: 'sandbox',
    baseUrl: '',
    sealedAccountSid: box.seal('AC0123456789'),
    sealedAuthToken: box.seal(authToken),
    createdAt: at,
    updatedAt: at,
  });
});
afterAll(async () => {
  await tier.close();
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The gateway hands carriers' callbacks in as an internal caller of no workspace. */
function signedCallback(params: Record<string, string>) {
  const url = carriers.callbackUrl(connectionId);
  return tier.client.handleCarrierCallback({ connection: connectionId, url, params, signature: twilioSignature(authToken, url, params) }, tier.internal);
}

describe('handleCarrierCallback', () => {
  test('a known delivery status for an unknown message is acknowledged', async () => {
    expect(await signedCallback({ MessageSid: 'SM-unknown', MessageStatus: 'delivered' })).toEqual({ $typeName: 'voice.telephony.v1.HandleCarrierCallbackResponse' });
  });

  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'bogus'])('MessageStatus %s is 400 invalid_argument', async (status) => {
    const error = await failure(signedCallback({ MessageSid: 'SM-1', MessageStatus: status }));
    expect(error).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
    expect(error.message).toContain('MessageStatus');
  });

  test.each(['constructor', 'valueOf', '__proto__', 'bogus'])('CampaignStatus %s is 400 invalid_argument', async (verdict) => {
    const error = await failure(signedCallback({ CampaignId: newId(), CampaignStatus: verdict }));
    expect(error).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request' });
    expect(error.message).toContain('CampaignStatus');
  });
});
