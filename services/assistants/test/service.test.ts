// The assistants service's routes over an in-memory Connect transport, with the real signed-caller
// interceptor, SQLite store, secret box and shipped catalog.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Code, createClient, createRouterTransport } from '@connectrpc/connect';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { CatalogService } from '@voice/proto/voice/assistants/v1/catalog';
import { AssistantVersionsService } from '@voice/proto/voice/assistants/v1/versions';
import { EmailSenderService } from '@voice/proto/voice/platform/v1/email';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { egressPolicy } from '@voice/runtime/egress';
import { CallerSigner } from '@voice/runtime/caller';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { ProviderKeyTester } from '../src/inference/provider-key-test.js';
import { Ingestion } from '../src/ingestion/ingestion.js';
import { assistantsRoutes } from '../src/routes.js';
import { SqliteAssistantsStore } from '../src/store/sqlite.js';
import { failure, routerClient } from '../../runtime/test/service-tiers.js';

const dir = mkdtempSync(join(tmpdir(), 'assistants-service-'));
const store = new SqliteAssistantsStore(join(dir, 'assistants.sqlite'));
// One signer for the three areas, so one caller's headers open each of them.
const signer = new CallerSigner(randomBytes(32));
// No tools, telephony or platform-users service here: these tests send no tool_ids and delete nothing in use
// (test/assistants-references.test.ts checks references across the running services).
const elsewhere = createRouterTransport(() => {});
const routes = assistantsRoutes({
  store,
  box: new SecretBox(randomBytes(32)),
  ingestion: new Ingestion({ store, policy: egressPolicy({ allowPrivate: false }), now: () => new Date(), logger: createLogger({ service: 'test', level: 'silent' }) }),
  policy: egressPolicy({ allowPrivate: false }),
  keyTester: new ProviderKeyTester({ urls: { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com', google: 'https://generativelanguage.googleapis.com' }, policy: egressPolicy({ allowPrivate: false }) }),
  tools: createClient(ToolsService, elsewhere),
  telephony: createClient(TelephonyService, elsewhere),
  emailSenders: createClient(EmailSenderService, elsewhere),
  signer,
});
const tier = routerClient(AssistantsService, routes, { signer });
const assistants = tier.client;
const versions = routerClient(AssistantVersionsService, routes, { signer }).client;
const catalog = routerClient(CatalogService, routes, { signer }).client;
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const inWorkspace = (workspaceId: string) => tier.as({ workspaceId, principal: { type: 'service_account', id: 'k1', name: 'deploy key' }, scopes: null });

test('every call needs a signed caller; workspace calls need a workspace', async () => {
  expect((await failure(assistants.listAssistants({}))).code).toBe(Code.Unauthenticated);
  expect((await failure(catalog.listVoices({}))).code).toBe(Code.Unauthenticated);
  expect((await failure(assistants.listAssistants({}, inWorkspace('')))).reason).toBe('unauthorized');
  expect((await catalog.listVoices({}, inWorkspace(''))).total).toBeGreaterThan(0);
});

test('errors carry the public reason and field violations: invalid, outside the plan, stale, not found', async () => {
  const workspace = inWorkspace(newId());
  const invalid = await failure(assistants.createAssistant({ config: { name: 'x', model: { provider: 'openai', model: 'nope' } } }, workspace));
  expect(invalid).toMatchObject({ code: Code.InvalidArgument, reason: 'invalid_request', fields: [{ field: 'model.model', issue: expect.any(String) }] });
  const premium = { name: 'x', model: { provider: 'openai', model: 'gpt-4o' } };
  const refused = await failure(assistants.createAssistant({ config: premium, workspacePlan: 'starter' }, workspace));
  expect([refused.code, refused.reason]).toEqual([Code.PermissionDenied, 'forbidden']);
  // A caller that names no plan is held to the smallest.
  expect((await failure(assistants.createAssistant({ config: premium }, workspace))).reason).toBe('forbidden');
  const created = await assistants.createAssistant({ config: premium, workspacePlan: 'pro' }, workspace);
  const stale = await failure(assistants.updateAssistant({ id: created.assistant!.id, expectedRevision: 5, changes: { name: 'y' }, workspacePlan: 'pro' }, workspace));
  expect([stale.code, stale.reason]).toEqual([Code.Aborted, 'revision_conflict']);
  const missing = await failure(assistants.updateAssistant({ id: created.assistant!.id, changes: { name: 'y' } }, workspace));
  expect(missing).toMatchObject({ reason: 'invalid_request', fields: [{ field: 'expected_revision', issue: 'is required' }] });
  expect((await failure(versions.getAssistantVersion({ assistantId: created.assistant!.id, number: 2 }, workspace))).code).toBe(Code.NotFound);
});

test('an assistant of one workspace does not exist for another', async () => {
  const created = await assistants.createAssistant({ config: { name: 'mine' } }, inWorkspace(newId()));
  const other = inWorkspace(newId());
  const id = created.assistant!.id;
  expect((await failure(assistants.getAssistant({ id }, other))).code).toBe(Code.NotFound);
  expect((await failure(assistants.updateAssistant({ id, expectedRevision: 1, changes: { name: 'x' } }, other))).code).toBe(Code.NotFound);
  expect((await failure(assistants.deleteAssistant({ id }, other))).code).toBe(Code.NotFound);
  expect((await failure(versions.listAssistantVersions({ assistantId: id }, other))).code).toBe(Code.NotFound);
  expect((await failure(versions.restoreAssistantVersion({ assistantId: id, number: 1 }, other))).code).toBe(Code.NotFound);
  expect((await assistants.listAssistants({}, other)).total).toBe(0);
});

test('versions name their author; a restore is checked against the plan of today', async () => {
  const workspace = inWorkspace(newId());
  const created = await assistants.createAssistant({ config: { name: 'a', voice: { provider: 'elevenlabs', voice_id: 'rachel' } }, workspacePlan: 'pro' }, workspace);
  const id = created.assistant!.id;
  await assistants.updateAssistant({ id, expectedRevision: 1, changes: { voice: { provider: 'openai', voice_id: 'nova' } }, workspacePlan: 'starter' }, workspace);
  const [latest] = (await versions.listAssistantVersions({ assistantId: id }, workspace)).versions;
  expect(latest).toMatchObject({ number: 2, createdBy: { type: 'service_account', id: 'k1', name: 'deploy key' }, changedFields: ['voice.provider', 'voice.voice_id'], restoredFrom: 0 });
  const refused = await failure(versions.restoreAssistantVersion({ assistantId: id, number: 1, workspacePlan: 'starter' }, workspace));
  expect(refused.reason).toBe('forbidden');
  const restored = await versions.restoreAssistantVersion({ assistantId: id, number: 1, workspacePlan: 'pro' }, workspace);
  expect(restored.assistant).toMatchObject({ revision: 3, config: { voice: { voice_id: 'rachel' } } });
});

test("a call runs the assistant's current version only while today's plan includes its model", async () => {
  const workspace = inWorkspace(newId());
  const created = await assistants.createAssistant({ config: { name: 'premium', model: { provider: 'openai', model: 'gpt-4o' } }, workspacePlan: 'pro' }, workspace);
  const id = created.assistant!.id;
  await assistants.updateAssistant({ id, expectedRevision: 1, changes: { first_message: 'Hello' }, workspacePlan: 'pro' }, workspace);
  const answer = await assistants.getCallAssistant({ id, workspacePlan: 'pro' }, workspace);
  expect(answer.assistant).toMatchObject({ id, revision: 2, config: { first_message: 'Hello', model: { model: 'gpt-4o' } } });
  const downgraded = await failure(assistants.getCallAssistant({ id, workspacePlan: 'starter' }, workspace));
  expect([downgraded.code, downgraded.reason]).toEqual([Code.PermissionDenied, 'forbidden']);
  expect((await failure(assistants.getCallAssistant({ id, workspacePlan: 'pro' }, inWorkspace(newId())))).code).toBe(Code.NotFound);
  expect((await failure(assistants.getCallAssistant({ id: 'not-a-uuid', workspacePlan: 'pro' }, workspace))).code).toBe(Code.NotFound);
});
