// Carrier status callbacks at the service boundary: a signed callback whose status or verdict is
// not one the platform knows is a 400 naming the field, whatever the word (inherited object
// property names included), and changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code, ConnectError } from '@connectrpc/connect';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { CarrierDirectory } from '../src/carriers/directory.js';
import { carrierFor, CircuitBreakers } from '../src/carriers/registry.js';
import { twilioSignature } from '../src/carriers/twilio.js';
import { openSqliteTelephonyStore } from '../src/store/sqlite.js';
import { contextOf, serviceOver } from './service-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'telephony-callbacks-'));
const store = openSqliteTelephonyStore(join(dir, 'callbacks.sqlite'));
const box = new SecretBox(randomBytes(32));
const publicUrl = 'https://voice.example';
const carriers = new CarrierDirectory({
  platform: { provider: 'sandbox' },
  box,
  publicUrl,
  build: (account) => carrierFor(account, { breakers: new CircuitBreakers(), allowPrivate: false, onDelivery: () => undefined }),
});
const service = serviceOver({ store, box, carriers });

const context = contextOf('', { workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null, requestId: 'r1' });
const authToken = 'sandbox-token-0123456789';
const connectionId = newId();

beforeAll(async () => {
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
  carriers.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedCallback(params: Record<string, string>): Promise<unknown> {
  const url = carriers.callbackUrl(connectionId);
  try {
    return await service.handleCarrierCallback(
      { $typeName: 'voice.telephony.v1.HandleCarrierCallbackRequest', connection: connectionId, url, params, signature: twilioSignature(authToken, url, params) },
      context,
    );
  } catch (error) {
    return error;
  }
}

describe('handleCarrierCallback', () => {
  test('a known delivery status for an unknown message is acknowledged', async () => {
    expect(await signedCallback({ MessageSid: 'SM-unknown', MessageStatus: 'delivered' })).toEqual({});
  });

  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'bogus'])('MessageStatus %s is 400 invalid_argument', async (status) => {
    const error = await signedCallback({ MessageSid: 'SM-1', MessageStatus: status });
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    expect((error as ConnectError).rawMessage).toContain('MessageStatus');
  });

  test.each(['constructor', 'valueOf', '__proto__', 'bogus'])('CampaignStatus %s is 400 invalid_argument', async (verdict) => {
    const error = await signedCallback({ CampaignId: newId(), CampaignStatus: verdict });
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    expect((error as ConnectError).rawMessage).toContain('CampaignStatus');
  });
});
