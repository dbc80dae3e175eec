// The assistants service as it runs: started from its entry point on a free port, called over
// HTTP/2 with the Connect protocol by a real client, and closed cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { CatalogService } from '@voice/proto/voice/assistants/v1/catalog';
import { callHeaders, CallerSigner } from '@voice/runtime/caller';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import type { StartedService } from '@voice/runtime/server';
import { startAssistantsService } from '../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'assistants-server-'));
const secret = randomBytes(32);
const signer = new CallerSigner(secret);
let service: StartedService;
let sessions: Http2SessionManager;

beforeAll(async () => {
  service = await startAssistantsService(
    { DATA_DIR: dir, VOICE_ASSISTANTS_PORT: '0', VOICE_INTERNAL_SECRET: secret.toString('hex'), LOG_LEVEL: 'silent' },
    { logger: createLogger({ service: 'assistants-test', level: 'silent' }) },
  );
  sessions = new Http2SessionManager(service.server.url);
});

afterAll(async () => {
  sessions.abort();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

test('serves its areas over HTTP/2 and keeps what it wrote across a restart', async () => {
  const transport = createConnectTransport({ baseUrl: service.server.url, httpVersion: '2', sessionManager: sessions });
  const options = { headers: callHeaders(signer, { workspaceId: newId(), principal: { type: 'user', id: 'u1', name: 'Ada' }, scopes: null, requestId: 'r' }) };
  const assistants = createClient(AssistantsService, transport);
  const created = await assistants.createAssistant({ config: { name: 'Over the wire', system_prompt: 'Be brief.' } }, options);
  expect(created.assistant).toMatchObject({ revision: 1, config: { name: 'Over the wire', system_prompt: 'Be brief.' } });
  expect((await createClient(CatalogService, transport).listModels({ kind: 'llm' }, options)).catalogVersion).toMatch(/^\d{4}-/);

  sessions.abort();
  await service.close();
  service = await startAssistantsService(
    { DATA_DIR: dir, VOICE_ASSISTANTS_PORT: '0', VOICE_INTERNAL_SECRET: secret.toString('hex'), LOG_LEVEL: 'silent' },
    { logger: createLogger({ service: 'assistants-test', level: 'silent' }) },
  );
  sessions = new Http2SessionManager(service.server.url);
  const again = createClient(AssistantsService, createConnectTransport({ baseUrl: service.server.url, httpVersion: '2', sessionManager: sessions }));
  expect((await again.getAssistant({ id: created.assistant!.id }, options)).assistant).toEqual(created.assistant);
});
