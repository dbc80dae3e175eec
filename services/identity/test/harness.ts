// The identity service's routes over an in-memory Connect transport, with the real signed-caller
// interceptor, a real SQLite store, the in-process notifier and a clock tests can move forward.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { CredentialsRevokedSchema, IdentityService, type CredentialsRevoked } from '@voice/proto/voice/identity/v1/identity';
import type { Role } from '@voice/runtime/access';
import { callHeaders, CallerSigner, type Caller } from '@voice/runtime/caller';
import { errorDetailOf } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { credentialsRevokedSubject, InProcessNotifier } from '@voice/runtime/nats';
import { callerInterceptor } from '@voice/runtime/server';
import { bootstrapRoot } from '../src/bootstrap.js';
import type { ClientMetadataFetcher } from '../src/oauth/metadata-fetch.js';
import { ensurePlatformClient } from '../src/oauth/platform-client.js';
import { PasswordHasher, passwordHashCost } from '../src/passwords.js';
import { identityRoutes } from '../src/routes.js';
import { SqliteIdentityStore } from '../src/store/sqlite.js';

const logger = createLogger({ service: 'identity-test', level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'identity-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

export interface HarnessOptions {
  fetchClientMetadata?: ClientMetadataFetcher;
}

export async function setup(options: HarnessOptions = {}) {
  const file = join(dir, `${newId()}.sqlite`);
  const store = new SqliteIdentityStore(file);
  const notifier = new InProcessNotifier();
  const signer = new CallerSigner(randomBytes(32));
  const announced: string[] = [];
  // Time is the test's alone: it moves when a test advances it, plus a millisecond per reading, so
  // expiry checks never depend on the machine's speed or its clock being stepped.
  let offsetMs = 0;
  let readings = 0;
  const startedAt = Date.now();
  const clock = {
    now: () => new Date(startedAt + offsetMs + readings++),
    advance: (ms: number) => void (offsetMs += ms),
  };
  await bootstrapRoot(store, { rootApiKey: undefined, logger, announce: (line) => announced.push(line) });
  await ensurePlatformClient(store, clock.now());
  // The lowest cost VOICE_PASSWORD_HASH_COST allows: these tests are about rules, sign-in.test.ts about the hashes.
  const routes = identityRoutes({ store, notifier, now: clock.now, fetchClientMetadata: options.fetchClientMetadata, passwords: new PasswordHasher(passwordHashCost.min) });
  const transport = createRouterTransport(routes, { router: { interceptors: [callerInterceptor(signer, logger)] } });
  const client = createClient(IdentityService, transport);
  const as = (caller: Omit<Caller, 'requestId'>) => ({ headers: callHeaders(signer, { ...caller, requestId: 'test' }) });
  const gateway = as({ workspaceId: '', principal: { type: 'internal', id: 'gateway', name: 'gateway' }, scopes: null });
  const rootKey = /svc_\w+/.exec(announced[0] ?? '')![0];
  const root = await client.authenticate({ credential: rootKey }, gateway);
  const notices: CredentialsRevoked[] = [];
  notifier.subscribe(credentialsRevokedSubject, (payload) => void notices.push(fromBinary(CredentialsRevokedSchema, payload)));

  /** A service account of the workspace without scope restrictions. */
  const serviceAccount = (workspaceId: string) =>
    as({ workspaceId, principal: { type: 'service_account', id: newId(), name: 'admin key' }, scopes: null });
  /** A user acting in the workspace, as the gateway signs it after Authenticate. */
  const asUser = (workspaceId: string, userId: string) =>
    as({ workspaceId, principal: { type: 'user', id: userId, name: 'user' }, scopes: null });

  const newWorkspace = async (name = 'Acme') =>
    (await client.createWorkspace({ name, plan: 'pro', parentWorkspaceId: root.workspace!.id }, gateway)).workspace!;

  /**
   * A member as people become one: invited (AddMember), then accepting with `password` (the
   * password a new user chooses, or the one an existing user has). Active on return.
   */
  const addMember = async (workspaceId: string, role: Role, fields: { email?: string; password?: string; name?: string } = {}) => {
    const invited = (await client.addMember({ email: fields.email ?? `${newId().slice(0, 8)}@example.com`, role, name: fields.name ?? '' }, serviceAccount(workspaceId))).member!;
    await client.acceptMembership({ workspaceId, userId: invited.userId, password: fields.password ?? memberPassword }, gateway);
    return (await client.listMembers({ limit: 200 }, serviceAccount(workspaceId))).members.find((member) => member.userId === invited.userId)!;
  };

  return { file, store, notifier, client, as, gateway, rootKey, root, announced, notices, clock, serviceAccount, asUser, newWorkspace, addMember };
}

export type Harness = Awaited<ReturnType<typeof setup>>;

/** The password harness members choose when a test names none. */
export const memberPassword = 'a member’s own password';

/** The failure of a call that must fail: its Connect code and the detail the service attached. */
export async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const connect = ConnectError.from(error);
    return { code: connect.code, message: connect.rawMessage, ...errorDetailOf(connect) };
  }
  throw new Error('the call succeeded');
}

/** A PKCE verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const redirectUri = 'https://app.example/callback';

/** A registered public client (PKCE only, no secret) that may ask for every scope, in a realm (empty: the root's). */
export async function publicClient(h: Harness, redirectUris = [redirectUri], realmWorkspaceId = '') {
  return (await h.client.registerClient({ redirectUris, tokenEndpointAuthMethod: 'none', clientName: 'Native app', realmWorkspaceId }, h.gateway)).client!;
}

/** The realm a workspace's members sign in to, as the gateway names it (empty: the root's). */
async function realmOfWorkspace(h: Harness, workspaceId: string): Promise<string> {
  const workspace = await h.store.getWorkspace(workspaceId);
  const root = await h.store.rootWorkspace();
  return workspace && workspace.parentWorkspaceId !== root?.id && workspace.parentWorkspaceId !== null ? workspace.parentWorkspaceId : '';
}

/** Tokens for a member through the whole authorization code flow of a public client of the member's realm. */
export async function tokensFor(h: Harness, member: { workspaceId: string; userId: string }, scopes: string[], clientId?: string) {
  const realmWorkspaceId = await realmOfWorkspace(h, member.workspaceId);
  const id = clientId ?? (await publicClient(h, [redirectUri], realmWorkspaceId)).clientId;
  const { verifier, challenge } = pkce();
  const { code } = await h.client.issueAuthorizationCode(
    { clientId: id, userId: member.userId, workspaceId: member.workspaceId, redirectUri, scopes, codeChallenge: challenge, resource: '', realmWorkspaceId },
    h.gateway,
  );
  const { tokens } = await h.client.exchangeAuthorizationCode({ clientId: id, code, redirectUri, codeVerifier: verifier }, h.gateway);
  return { clientId: id, ...tokens! };
}
