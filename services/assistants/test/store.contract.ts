// The behaviour every assistants store must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { AssistantRecord, AssistantsStore, IdempotencyClaim, VersionRecord } from '../src/store/store.js';

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

  test('delete removes an assistant of the workspace and its versions, once', async () => {
    const assistant = await created();
    expect(await store.delete(otherWorkspace, assistant.id)).toBe(false);
    expect(await store.delete(workspace, assistant.id)).toBe(true);
    expect(await store.delete(workspace, assistant.id)).toBe(false);
    expect(await store.get(workspace, assistant.id)).toBeUndefined();
    expect((await store.listVersions(workspace, assistant.id, page())).total).toBe(0);
  });
}
