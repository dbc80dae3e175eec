// The production issuer lookup against the real identity service on a free port: the root
// platform workspace is the issuer, its customers are not, unknown workspaces are not found;
// and billing started without an injected lookup asks identity at VOICE_IDENTITY_URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { startIdentityService, type StartedIdentity } from '@voice/identity';
import { callHeaders, CallerSigner, type Principal } from '@voice/runtime/caller';
import { randomBase62 } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { InProcessNotifier } from '@voice/runtime/nats';
import { IdentityIssuerLookup } from '../src/wallets/issuers.js';
import { startBillingService } from '../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'billing-issuers-'));
const secret = randomBytes(32);
const signer = new CallerSigner(secret);
const silent = createLogger({ service: 'issuers-test', level: 'silent' });
const rootKey = `svc_${randomBase62(40)}`;
const env = { DATA_DIR: dir, VOICE_INTERNAL_SECRET: secret.toString('hex'), LOG_LEVEL: 'silent', VOICE_ROOT_API_KEY: rootKey };
const notifier = new InProcessNotifier();
const sessions: Http2SessionManager[] = [];

let identity: StartedIdentity;
let lookup: IdentityIssuerLookup;
let root: string;
let customer: string;

const headers = (principal: Principal, workspaceId = '') => ({ headers: callHeaders(signer, { workspaceId, principal, scopes: null, requestId: newId() }) });
const gateway = headers({ type: 'internal', id: 'gateway', name: 'gateway' });

function clientOf<T extends typeof IdentityService | typeof BillingService>(service: T, url: string) {
  const sessionManager = new Http2SessionManager(url);
  sessions.push(sessionManager);
  return createClient(service, createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager }));
}

beforeAll(async () => {
  identity = await startIdentityService({ ...env, VOICE_IDENTITY_PORT: '0' }, { logger: silent, notifier, announce: () => {} });
  const identityClient = clientOf(IdentityService, identity.server.url);
  root = (await identityClient.authenticate({ credential: rootKey }, gateway)).workspace!.id;
  customer = (await identityClient.createWorkspace({ name: 'Customer', plan: 'starter', parentWorkspaceId: root }, gateway)).workspace!.id;
  lookup = new IdentityIssuerLookup(identity.server.url, signer);
});

afterAll(async () => {
  lookup.close();
  sessions.forEach((session) => session.abort());
  await identity.close();
  await notifier.close();
  rmSync(dir, { recursive: true, force: true });
});

async function codeOf(call: Promise<unknown>): Promise<Code> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error).code;
  }
  throw new Error('the call succeeded');
}

test('the root platform workspace is the issuer and its customers are not', async () => {
  expect(await lookup.isIssuer(root)).toBe(true);
  expect(await lookup.isIssuer(customer)).toBe(false);
});

test('a workspace identity does not know is not found', async () => {
  expect(await codeOf(lookup.isIssuer(newId()))).toBe(Code.NotFound);
  expect(await codeOf(lookup.isIssuer('not-a-workspace'))).toBe(Code.NotFound);
});

test('an identity service that cannot be reached is unavailable, not "not found"', async () => {
  const unreachable = new IdentityIssuerLookup('http://127.0.0.1:9', signer);
  try {
    expect(await codeOf(unreachable.isIssuer(root))).toBe(Code.Unavailable);
  } finally {
    unreachable.close();
  }
});

test('billing started without a lookup asks identity at VOICE_IDENTITY_URL', async () => {
  const billing = await startBillingService({ ...env, VOICE_BILLING_PORT: '0', VOICE_IDENTITY_URL: identity.server.url }, { logger: silent });
  try {
    const client = clientOf(BillingService, billing.server.url);
    const member = (workspaceId: string) => headers({ type: 'service_account', id: 'key', name: 'key' }, workspaceId);
    expect((await client.getBalance({}, member(root))).wallet?.issuer).toBe(true);
    expect((await client.getBalance({}, member(customer))).wallet?.issuer).toBe(false);
    const moved = await client.transfer(
      { fromWorkspaceId: root, toWorkspaceId: customer, amount: { creditUnits: 10_000n, minuteUnits: 0n }, transferId: newId() },
      headers({ type: 'internal', id: 'platform-users', name: 'platform-users' }),
    );
    expect(moved.debit?.balanceAfter?.creditUnits).toBe(-10_000n);
  } finally {
    await billing.close();
  }
});
