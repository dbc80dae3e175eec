// The identity service's routes over an in-memory Connect transport, with the real signed-caller
// interceptor, a real SQLite store, the in-process notifier and a clock tests can move forward.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { CredentialsRevokedSchema, IdentityService, type CredentialsRevoked } from '@voice/proto/voice/identity/v1/identity';
import type { Role } from '@voice/runtime/access';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { credentialsRevokedSubject, InProcessNotifier } from '@voice/runtime/nats';
import { bootstrapRoot } from '../src/workspaces/bootstrap.js';
import type { ClientMetadataFetcher } from '../src/oauth/metadata-fetch.js';
import { ensurePlatformClient } from '../src/oauth/platform-client.js';
import { PasswordHasher } from '../src/users/passwords.js';
import { identityRoutes } from '../src/routes.js';
import { openSqliteIdentityStore } from '../src/store/sqlite.js';
import { routerClient, serverClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

const logger = createLogger({ service: 'identity-test', level: 'silent' });

/**
 * scrypt's N (a power of two) the harness hashes at: 2^11, a few milliseconds a hash, below what
 * VOICE_PASSWORD_HASH_COST accepts (passwordHashCost.min), so production cannot run at it. It stays
 * above the lowest cost a stored hash may have (2^10), which sign-in.service.test.ts rehashes.
 */
export const harnessPasswordHashCost = 11;
const dir = mkdtempSync(join(tmpdir(), 'identity-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

export interface HarnessOptions {
  fetchClientMetadata?: ClientMetadataFetcher;
  /** Tier 2 (the default): the routes over the router transport; tier 3: a real server on port 0 over HTTP/2. */
  tier?: 'router' | 'server';
}

export async function setup(options: HarnessOptions = {}) {
  const file = join(dir, `${newId()}.sqlite`);
  const store = openSqliteIdentityStore(file);
  const notifier = new InProcessNotifier();
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
  // These tests are about rules, sign-in.service.test.ts about the hashes: see harnessPasswordHashCost.
  const routes = identityRoutes({ store, notifier, now: clock.now, fetchClientMetadata: options.fetchClientMetadata, passwords: new PasswordHasher(harnessPasswordHashCost) });
  const served = options.tier === 'server' ? await serverClient(IdentityService, routes, { logger }) : undefined;
  const tier = served ?? routerClient(IdentityService, routes, { logger });
  const { client, as, internal: gateway } = tier;
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

  /** Ends the client and the server (tier 3), then the store. */
  const close = async () => {
    await tier.close();
    await store.close();
  };

  /** The real server's address (tier 3). */
  const url = served?.server.url;

  return { file, store, notifier, client, as, gateway, rootKey, root, announced, notices, clock, serviceAccount, asUser, newWorkspace, addMember, url, close };
}

export type Harness = Awaited<ReturnType<typeof setup>>;

/** The password harness members choose when a test names none. */
export const memberPassword = 'a member’s own password';

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
