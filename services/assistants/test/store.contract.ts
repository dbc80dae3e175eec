// The behaviour every assistants store must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { AssistantRecord, AssistantsStore, DocumentRecord, IdempotencyClaim, KnowledgeBaseRecord, VersionRecord } from '../src/store/store.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function assistantRecord(workspaceId: string, overrides: Partial<AssistantRecord> = {}): AssistantRecord {
  const at = tick();
  const name = overrides.name ?? `Assistant ${newId().slice(0, 8)}`;
  return {
    id: newId(),
    workspaceId,
    name,
    config: { name, model: { provider: 'openai', model: 'gpt-4o-mini' }, metadata: { 'dotted.key': 1, $dollar: [true] } },
    revision: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export const versionOf = (assistant: AssistantRecord, overrides: Partial<VersionRecord> = {}): VersionRecord => ({
  workspaceId: assistant.workspaceId,
  assistantId: assistant.id,
  number: assistant.revision,
  config: assistant.config,
  author: { type: 'service_account', id: 'key-1', name: 'ci' },
  changedFields: ['name'],
  restoredFrom: 0,
  createdAt: assistant.updatedAt,
  ...overrides,
});

const claim = (key: string, fingerprint: string, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  key,
  fingerprint,
  now: tick(),
  expiredBefore: '2000-01-01T00:00:00.000Z',
  ...overrides,
});

const page = (limit = 50, offset = 0) => ({ limit, offset });

export function knowledgeBaseRecord(workspaceId: string, overrides: Partial<KnowledgeBaseRecord> = {}): KnowledgeBaseRecord {
  const at = tick();
  return { id: newId(), workspaceId, name: `KB ${newId().slice(0, 6)}`, description: '', createdAt: at, updatedAt: at, ...overrides };
}

export function documentRecord(knowledgeBase: KnowledgeBaseRecord, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId: knowledgeBase.workspaceId,
    knowledgeBaseId: knowledgeBase.id,
    name: 'Doc',
    source: 'text',
    url: null,
    contentType: 'text/plain',
    sizeBytes: 10,
    maxBytes: 1000,
    status: 'processing',
    failureReason: null,
    chunkCount: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const roomy = { documents: 100, bytes: 1_000_000 };

export function assistantsStoreContract(open: () => Promise<AssistantsStore>): void {
  let store: AssistantsStore;
  let workspace: string;
  let otherWorkspace: string;

  beforeEach(async () => {
    store = await open();
    workspace = newId();
    otherWorkspace = newId();
  });
  afterEach(async () => {
    await store.close();
  });

  const created = async (overrides: Partial<AssistantRecord> = {}) => {
    const assistant = assistantRecord(overrides.workspaceId ?? workspace, overrides);
    expect(await store.create(assistant, versionOf(assistant))).toEqual({ kind: 'created', assistant });
    return assistant;
  };

  test('a created assistant and its first version read back whole, only in their own workspace', async () => {
    const assistant = await created();
    expect(await store.get(workspace, assistant.id)).toEqual(assistant);
    expect(await store.get(otherWorkspace, assistant.id)).toBeUndefined();
    expect(await store.getVersion(workspace, assistant.id, 1)).toEqual(versionOf(assistant));
    expect(await store.getVersion(otherWorkspace, assistant.id, 1)).toBeUndefined();
    expect(await store.getVersion(workspace, assistant.id, 2)).toBeUndefined();
  });

  test('list is newest first, paginated with the total, and searches names ignoring case and wildcards', async () => {
    const names = ['Sales Line', 'support line', 'Billing', '50% off', 'under_score', 'Émile'];
    const assistants = [];
    for (const name of names) assistants.push(await created({ name }));
    await created({ workspaceId: otherWorkspace, name: 'Sales Line' });
    const all = await store.list(workspace, '', page());
    expect(all.total).toBe(6);
    expect(all.assistants.map((a) => a.id)).toEqual(assistants.map((a) => a.id).reverse());
    expect((await store.list(workspace, '', page(2, 1))).assistants.map((a) => a.name)).toEqual(['under_score', '50% off']);
    const lines = await store.list(workspace, 'LINE', page());
    expect([lines.total, lines.assistants.map((a) => a.name)]).toEqual([2, ['support line', 'Sales Line']]);
    expect((await store.list(workspace, '%', page())).assistants.map((a) => a.name)).toEqual(['50% off']);
    expect((await store.list(workspace, '_', page())).assistants.map((a) => a.name)).toEqual(['under_score']);
    expect((await store.list(workspace, 'émi', page())).assistants.map((a) => a.name)).toEqual(['Émile']);
    expect((await store.list(workspace, '.*', page())).total).toBe(0);
  });

  test('update at the expected revision changes the assistant and writes the version in one step', async () => {
    const assistant = await created();
    const at = tick();
    const change = { name: 'Renamed', config: { name: 'Renamed' }, updatedAt: at };
    const outcome = await store.update(workspace, assistant.id, 1, change, versionOf(assistant, { number: 2, config: change.config, createdAt: at, changedFields: ['name'] }));
    const updated = { ...assistant, name: 'Renamed', config: change.config, revision: 2, updatedAt: at };
    expect(outcome).toEqual({ kind: 'updated', assistant: updated });
    expect(await store.get(workspace, assistant.id)).toEqual(updated);
    expect(await store.getVersion(workspace, assistant.id, 2)).toMatchObject({ number: 2, config: change.config });
    const versions = await store.listVersions(workspace, assistant.id, page());
    expect([versions.total, versions.versions.map((v) => v.number)]).toEqual([2, [2, 1]]);
    expect((await store.listVersions(workspace, assistant.id, page(1, 1))).versions.map((v) => v.number)).toEqual([1]);
    expect((await store.listVersions(otherWorkspace, assistant.id, page())).total).toBe(0);
  });

  test('a stale revision, another workspace and a missing assistant are told apart and change nothing', async () => {
    const assistant = await created();
    const change = { name: 'X', config: {}, updatedAt: tick() };
    expect(await store.update(workspace, assistant.id, 2, change, versionOf(assistant))).toEqual({ kind: 'revision_conflict' });
    expect(await store.update(otherWorkspace, assistant.id, 1, change, versionOf(assistant))).toEqual({ kind: 'not_found' });
    expect(await store.update(workspace, newId(), 1, change, versionOf(assistant))).toEqual({ kind: 'not_found' });
    expect(await store.get(workspace, assistant.id)).toEqual(assistant);
    expect((await store.listVersions(workspace, assistant.id, page())).total).toBe(1);
  });

  test('of 20 concurrent updates at one revision exactly one wins, with one version', async () => {
    const assistant = await created();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update(workspace, assistant.id, 1, { name: `writer ${i}`, config: { i }, updatedAt: tick() }, versionOf(assistant, { number: 2, config: { i } })),
      ),
    );
    const winners = outcomes.filter((o) => o.kind === 'updated');
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'revision_conflict')).toHaveLength(19);
    const stored = await store.get(workspace, assistant.id);
    expect(stored?.revision).toBe(2);
    expect((await store.getVersion(workspace, assistant.id, 2))?.config).toEqual(stored?.config);
    expect((await store.listVersions(workspace, assistant.id, page())).total).toBe(2);
  });

  test('an idempotency key replays the first outcome, refuses another body, is per workspace, and expires', async () => {
    const first = assistantRecord(workspace);
    expect(await store.create(first, versionOf(first), claim('key-1', 'fp-a'))).toEqual({ kind: 'created', assistant: first });
    const retry = assistantRecord(workspace);
    expect(await store.create(retry, versionOf(retry), claim('key-1', 'fp-a'))).toEqual({ kind: 'replayed', assistant: first });
    expect(await store.create(retry, versionOf(retry), claim('key-1', 'fp-b'))).toEqual({ kind: 'key_reused' });
    expect((await store.list(workspace, '', page())).total).toBe(1);
    const elsewhere = assistantRecord(otherWorkspace);
    expect((await store.create(elsewhere, versionOf(elsewhere), claim('key-1', 'fp-b'))).kind).toBe('created');
    const later = assistantRecord(workspace);
    expect(await store.create(later, versionOf(later), claim('key-1', 'fp-b', { expiredBefore: '2999-01-01T00:00:00.000Z' }))).toEqual({
      kind: 'created',
      assistant: later,
    });
  });

  test('concurrent creates under one idempotency key create one assistant', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => {
        const assistant = assistantRecord(workspace);
        return store.create(assistant, versionOf(assistant), claim('key-3', 'fp'));
      }),
    );
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
    expect(outcomes.every((o) => o.kind === 'created' || o.kind === 'replayed')).toBe(true);
    expect((await store.list(workspace, '', page())).total).toBe(1);
  });

  test('pruning deletes claims made before the cut-off, the oldest first and at most the batch; assistants stay', async () => {
    const [oldest, old, young] = [assistantRecord(workspace), assistantRecord(workspace), assistantRecord(workspace)];
    await store.create(oldest, versionOf(oldest), claim('key-oldest', 'fp'));
    await store.create(old, versionOf(old), claim('key-old', 'fp'));
    const cutOff = tick();
    await store.create(young, versionOf(young), claim('key-young', 'fp'));
    expect(await store.pruneIdempotencyClaims(cutOff, 1)).toBe(1);
    expect(await store.pruneIdempotencyClaims(cutOff, 10)).toBe(1);
    expect(await store.pruneIdempotencyClaims(cutOff, 10)).toBe(0);
    const again = assistantRecord(workspace);
    expect((await store.create(again, versionOf(again), claim('key-oldest', 'fp'))).kind).toBe('created');
    expect((await store.create(assistantRecord(workspace), versionOf(again), claim('key-young', 'fp'))).kind).toBe('replayed');
    expect((await store.list(workspace, '', page())).total).toBe(4);
  });

  test('settings are saved per workspace and kind, revision-checked, so of concurrent writers one wins each round', async () => {
    expect(await store.settings(workspace, 'memory')).toBeUndefined();
    const at = tick();
    expect(await store.saveSettings(workspace, 'memory', { enabled: true, 'dotted.key': { $x: 1 } }, 0, at)).toBe(true);
    expect(await store.saveSettings(workspace, 'memory', { enabled: false }, 0, tick())).toBe(false);
    expect(await store.settings(workspace, 'memory')).toEqual({ value: { enabled: true, 'dotted.key': { $x: 1 } }, revision: 1, updatedAt: at });
    expect(await store.settings(workspace, 'ai_inference')).toBeUndefined();
    expect(await store.settings(otherWorkspace, 'memory')).toBeUndefined();
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => store.saveSettings(workspace, 'memory', { writer: i }, 1, tick())));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const stored = await store.settings(workspace, 'memory');
    expect(stored?.revision).toBe(2);
    expect(await store.saveSettings(workspace, 'memory', { stale: true }, 1, tick())).toBe(false);
    const first = await Promise.all(Array.from({ length: 5 }, (_, i) => store.saveSettings(otherWorkspace, 'ai_inference', { writer: i }, 0, tick())));
    expect(first.filter(Boolean)).toHaveLength(1);
  });

  test('knowledge bases are per workspace, with the count and size of their documents', async () => {
    const knowledgeBase = knowledgeBaseRecord(workspace);
    await store.createKnowledgeBase(knowledgeBase);
    await store.createKnowledgeBase(knowledgeBaseRecord(otherWorkspace));
    expect(await store.getKnowledgeBase(workspace, knowledgeBase.id)).toEqual({ ...knowledgeBase, documentCount: 0, sizeBytes: 0 });
    expect(await store.getKnowledgeBase(otherWorkspace, knowledgeBase.id)).toBeUndefined();
    expect(await store.addDocument(documentRecord(knowledgeBase, { sizeBytes: 7 }), new Uint8Array([1, 2]), roomy)).toBe('added');
    expect(await store.addDocument(documentRecord(knowledgeBase, { sizeBytes: 5 }), null, roomy)).toBe('added');
    expect(await store.getKnowledgeBase(workspace, knowledgeBase.id)).toMatchObject({ documentCount: 2, sizeBytes: 12 });
    const listed = await store.listKnowledgeBases(workspace, page());
    expect([listed.total, listed.knowledgeBases.map((k) => [k.id, k.documentCount])]).toEqual([1, [[knowledgeBase.id, 2]]]);
    expect(await store.existingKnowledgeBases(workspace, [knowledgeBase.id, newId()])).toEqual(new Set([knowledgeBase.id]));
    expect(await store.existingKnowledgeBases(otherWorkspace, [knowledgeBase.id])).toEqual(new Set());
  });

  test('a document is refused for a missing knowledge base and past the workspace limits, counted across its knowledge bases', async () => {
    const first = knowledgeBaseRecord(workspace);
    const second = knowledgeBaseRecord(workspace);
    await store.createKnowledgeBase(first);
    await store.createKnowledgeBase(second);
    const limits = { documents: 2, bytes: 100 };
    expect(await store.addDocument(documentRecord(knowledgeBaseRecord(workspace)), null, limits)).toBe('not_found');
    expect(await store.addDocument({ ...documentRecord(first), workspaceId: otherWorkspace }, null, limits)).toBe('not_found');
    expect(await store.addDocument(documentRecord(first, { sizeBytes: 60 }), null, limits)).toBe('added');
    expect(await store.addDocument(documentRecord(second, { sizeBytes: 41 }), null, limits)).toBe('bytes_limit');
    expect(await store.addDocument(documentRecord(second, { sizeBytes: 40 }), null, limits)).toBe('added');
    expect(await store.addDocument(documentRecord(second, { sizeBytes: 0 }), null, limits)).toBe('documents_limit');
    const concurrent = await Promise.all(Array.from({ length: 6 }, () => store.addDocument(documentRecord(first, { sizeBytes: 1 }), null, { documents: 5, bytes: 1000 })));
    expect(concurrent.filter((outcome) => outcome === 'added')).toHaveLength(3);
  });

  test('ingestion: pending documents with their content, completed once into searchable chunks, or failed', async () => {
    const knowledgeBase = knowledgeBaseRecord(workspace);
    await store.createKnowledgeBase(knowledgeBase);
    const ready = documentRecord(knowledgeBase, { name: 'Parking' });
    const failed = documentRecord(knowledgeBase, { name: 'Broken' });
    await store.addDocument(ready, new TextEncoder().encode('raw'), roomy);
    await store.addDocument(failed, null, roomy);
    const pending = await store.pendingDocuments(10);
    expect(pending.map((entry) => entry.document.id)).toEqual([ready.id, failed.id]);
    expect(Buffer.from(pending[0]!.content!).toString()).toBe('raw');
    expect(pending[1]!.content).toBeNull();
    const chunks = ['The garage is on Elm Street.', 'Parking on level B2 is free for patients; parking elsewhere is not.', 'Reception validates tickets.'];
    const at = tick();
    expect(await store.completeDocument(ready.id, { chunks, sizeBytes: 99, contentType: 'text/html' }, at)).toBe(true);
    expect(await store.completeDocument(ready.id, { chunks: ['again'], sizeBytes: 1, contentType: 'text/plain' }, tick())).toBe(false);
    expect(await store.completeDocument(failed.id, { failure: 'unreadable' }, at)).toBe(true);
    expect(await store.pendingDocuments(10)).toEqual([]);
    const documents = (await store.listDocuments(workspace, knowledgeBase.id, page())).documents;
    expect(documents.find((d) => d.id === ready.id)).toEqual({ ...ready, status: 'ready', chunkCount: 3, sizeBytes: 99, contentType: 'text/html', updatedAt: at });
    expect(documents.find((d) => d.id === failed.id)).toMatchObject({ status: 'failed', failureReason: 'unreadable', chunkCount: 0 });
    const hits = await store.searchChunks(workspace, knowledgeBase.id, ['parking', 'free'], 5);
    expect(hits[0]).toMatchObject({ documentId: ready.id, documentName: 'Parking', position: 1, text: chunks[1] });
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits.every((hit, i) => i === 0 || hit.score <= hits[i - 1]!.score)).toBe(true);
    expect(await store.searchChunks(otherWorkspace, knowledgeBase.id, ['parking'], 5)).toEqual([]);
    expect(await store.searchChunks(workspace, knowledgeBase.id, ['"quoted', 'OR', 'NEAR('], 5)).toEqual([]);
    expect(await store.searchChunks(workspace, knowledgeBase.id, [], 5)).toEqual([]);
  });

  test('deleting a document drops its chunks; deleting a knowledge base drops its documents; the in-use count reads assistants', async () => {
    const knowledgeBase = knowledgeBaseRecord(workspace);
    await store.createKnowledgeBase(knowledgeBase);
    const document = documentRecord(knowledgeBase);
    await store.addDocument(document, null, roomy);
    await store.completeDocument(document.id, { chunks: ['zebra crossing'], sizeBytes: 14, contentType: 'text/plain' }, tick());
    expect(await store.deleteDocument(otherWorkspace, knowledgeBase.id, document.id)).toBe(false);
    expect(await store.deleteDocument(workspace, knowledgeBase.id, document.id)).toBe(true);
    expect(await store.searchChunks(workspace, knowledgeBase.id, ['zebra'], 5)).toEqual([]);
    const user = assistantRecord(workspace, { config: { name: 'A', knowledge_base_ids: [knowledgeBase.id] } });
    await store.create(user, versionOf(user));
    expect(await store.countUsingKnowledgeBase(workspace, knowledgeBase.id)).toBe(1);
    expect(await store.countUsingKnowledgeBase(otherWorkspace, knowledgeBase.id)).toBe(0);
    await store.update(workspace, user.id, 1, { name: 'A', config: { name: 'A', knowledge_base_ids: [] }, updatedAt: tick() }, versionOf(user, { number: 2 }));
    expect(await store.countUsingKnowledgeBase(workspace, knowledgeBase.id)).toBe(0);
    await store.addDocument(documentRecord(knowledgeBase), null, roomy);
    expect(await store.deleteKnowledgeBase(otherWorkspace, knowledgeBase.id)).toBe(false);
    expect(await store.deleteKnowledgeBase(workspace, knowledgeBase.id)).toBe(true);
    expect(await store.getKnowledgeBase(workspace, knowledgeBase.id)).toBeUndefined();
    expect(await store.pendingDocuments(10)).toEqual([]);
  });

  test('delete removes an assistant of the workspace and its versions, once', async () => {
    const assistant = await created();
    expect(await store.delete(otherWorkspace, assistant.id)).toBe(false);
    expect(await store.delete(workspace, assistant.id)).toBe(true);
    expect(await store.delete(workspace, assistant.id)).toBe(false);
    expect(await store.get(workspace, assistant.id)).toBeUndefined();
    expect((await store.listVersions(workspace, assistant.id, page())).total).toBe(0);
  });
}
