// The behaviour every ToolStore must have, written once and run against each adapter.
import { newId } from '@voice/runtime/ids';
import type { IdempotencyClaim, ToolRecord, ToolStore } from '../src/store/store.js';
import type { OpenStore } from '../../runtime/test/store-contract.js';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = (): string => new Date((clock += 1000)).toISOString();

export function toolRecord(workspaceId: string, overrides: Partial<ToolRecord> = {}): ToolRecord {
  const at = tick();
  return {
    id: newId(),
    workspaceId,
    name: `tool_${newId().slice(0, 8)}`,
    description: 'looks things up',
    type: 'api',
    config: { url: 'https://example.com/hook', method: 'POST', headers: { 'X-Key': 'enc:v1:sealed' } },
    isActive: true,
    revision: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const claim = (key: string, fingerprint: string, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  key,
  fingerprint,
  now: tick(),
  expiredBefore: '2000-01-01T00:00:00.000Z',
  ...overrides,
});

export function toolStoreContract(open: OpenStore<ToolStore>): void {
  let store: ToolStore;
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

  test('a created tool reads back whole, and only in its own workspace', async () => {
    const tool = toolRecord(workspace, { isActive: false, type: 'mcp', config: { url: 'https://mcp.example.com', nested: { list: [1, 'two'] } } });
    expect(await store.create(tool)).toEqual({ kind: 'created', tool });
    expect(await store.get(workspace, tool.id)).toEqual(tool);
    expect(await store.get(otherWorkspace, tool.id)).toBeUndefined();
    expect(await store.get(workspace, newId())).toBeUndefined();
  });

  test('names are unique within a workspace, not across workspaces', async () => {
    await store.create(toolRecord(workspace, { name: 'lookup' }));
    expect(await store.create(toolRecord(workspace, { name: 'lookup' }))).toEqual({ kind: 'name_taken' });
    expect((await store.create(toolRecord(otherWorkspace, { name: 'lookup' }))).kind).toBe('created');
  });

  test('list is newest first, filtered, paginated, with the total of all matches', async () => {
    const created: ToolRecord[] = [];
    for (let i = 0; i < 5; i += 1) {
      const tool = toolRecord(workspace, { type: i % 2 === 0 ? 'api' : 'builtin', isActive: i !== 4 });
      await store.create(tool);
      created.push(tool);
    }
    await store.create(toolRecord(otherWorkspace));
    const all = await store.list(workspace, {}, { limit: 50, offset: 0 });
    expect(all.total).toBe(5);
    expect(all.tools.map((t) => t.id)).toEqual(created.map((t) => t.id).reverse());
    const page = await store.list(workspace, {}, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.tools.map((t) => t.id)).toEqual([created[3]!.id, created[2]!.id]);
    const apis = await store.list(workspace, { type: 'api' }, { limit: 50, offset: 0 });
    expect(apis.total).toBe(3);
    expect(apis.tools.every((t) => t.type === 'api')).toBe(true);
    const inactive = await store.list(workspace, { isActive: false }, { limit: 50, offset: 0 });
    expect(inactive.tools.map((t) => t.id)).toEqual([created[4]!.id]);
    const activeApis = await store.list(workspace, { type: 'api', isActive: true }, { limit: 50, offset: 0 });
    expect(activeApis.total).toBe(2);
    expect((await store.list(workspace, {}, { limit: 10, offset: 10 })).tools).toEqual([]);
  });

  test('update applies only the given changes at the expected revision and bumps it', async () => {
    const tool = toolRecord(workspace);
    await store.create(tool);
    const now = tick();
    const outcome = await store.update(workspace, tool.id, 1, { isActive: false, config: { url: 'https://x.example' } }, now);
    expect(outcome).toEqual({
      kind: 'updated',
      tool: { ...tool, isActive: false, config: { url: 'https://x.example' }, revision: 2, updatedAt: now },
    });
    const renamed = await store.update(workspace, tool.id, 2, { name: 'renamed', description: '' }, tick());
    expect(renamed.kind === 'updated' && [renamed.tool.name, renamed.tool.description, renamed.tool.revision]).toEqual(['renamed', '', 3]);
  });

  test('a stale revision, a foreign workspace, a missing tool and a taken name are told apart', async () => {
    const tool = toolRecord(workspace);
    const other = toolRecord(workspace, { name: 'taken' });
    await store.create(tool);
    await store.create(other);
    expect(await store.update(workspace, tool.id, 2, { isActive: false }, tick())).toEqual({ kind: 'revision_conflict' });
    expect(await store.update(otherWorkspace, tool.id, 1, { isActive: false }, tick())).toEqual({ kind: 'not_found' });
    expect(await store.update(workspace, newId(), 1, { isActive: false }, tick())).toEqual({ kind: 'not_found' });
    expect(await store.update(workspace, tool.id, 1, { name: 'taken' }, tick())).toEqual({ kind: 'name_taken' });
    expect(await store.get(workspace, tool.id)).toEqual(tool);
  });

  test('of 20 concurrent updates at one revision exactly one wins', async () => {
    const tool = toolRecord(workspace);
    await store.create(tool);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.update(workspace, tool.id, 1, { description: `writer ${i}` }, tick())),
    );
    const winners = outcomes.filter((o) => o.kind === 'updated');
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'revision_conflict')).toHaveLength(19);
    const stored = await store.get(workspace, tool.id);
    expect(stored?.revision).toBe(2);
    expect(winners[0]!.kind === 'updated' && winners[0]!.tool.description).toBe(stored?.description);
  });

  test('an idempotency key replays the first outcome, refuses another body, and expires', async () => {
    const first = toolRecord(workspace);
    expect(await store.create(first, claim('key-1', 'fp-a'))).toEqual({ kind: 'created', tool: first });
    expect(await store.create(toolRecord(workspace), claim('key-1', 'fp-a'))).toEqual({ kind: 'replayed', tool: first });
    expect(await store.create(toolRecord(workspace), claim('key-1', 'fp-b'))).toEqual({ kind: 'key_reused' });
    expect((await store.list(workspace, {}, { limit: 50, offset: 0 })).total).toBe(1);
    // The same key in another workspace is another key.
    expect((await store.create(toolRecord(otherWorkspace), claim('key-1', 'fp-b'))).kind).toBe('created');
    // Once expired, the key is free again.
    const later = toolRecord(workspace);
    expect(await store.create(later, claim('key-1', 'fp-b', { expiredBefore: '2999-01-01T00:00:00.000Z' }))).toEqual({
      kind: 'created',
      tool: later,
    });
  });

  test('a create refused for its name leaves the idempotency key unused', async () => {
    await store.create(toolRecord(workspace, { name: 'dup' }));
    expect(await store.create(toolRecord(workspace, { name: 'dup' }), claim('key-2', 'fp'))).toEqual({ kind: 'name_taken' });
    const retry = toolRecord(workspace, { name: 'fresh' });
    expect(await store.create(retry, claim('key-2', 'fp'))).toEqual({ kind: 'created', tool: retry });
  });

  test('pruning deletes idempotency claims made before the cut-off, the oldest first and at most the batch; the tools stay', async () => {
    const [oldest, old, young] = [toolRecord(workspace), toolRecord(workspace), toolRecord(workspace)];
    await store.create(oldest, claim('key-oldest', 'fp'));
    await store.create(old, claim('key-old', 'fp'));
    const cutOff = tick();
    await store.create(young, claim('key-young', 'fp'));
    expect(await store.pruneIdempotencyClaims(cutOff, 1)).toBe(1);
    expect(await store.pruneIdempotencyClaims(cutOff, 10)).toBe(1);
    expect(await store.pruneIdempotencyClaims(cutOff, 10)).toBe(0);
    // A pruned key is free: the same request creates anew (here refused for the name the first took).
    expect(await store.create(toolRecord(workspace, { name: oldest.name }), claim('key-oldest', 'fp'))).toEqual({ kind: 'name_taken' });
    expect(await store.create(toolRecord(workspace), claim('key-young', 'fp'))).toEqual({ kind: 'replayed', tool: young });
    expect((await store.list(workspace, {}, { limit: 10, offset: 0 })).total).toBe(3);
  });

  test('concurrent creates under one idempotency key create one tool', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => store.create(toolRecord(workspace, { name: 'same' }), claim('key-3', 'fp'))),
    );
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
    expect(outcomes.every((o) => o.kind === 'created' || o.kind === 'replayed')).toBe(true);
    expect((await store.list(workspace, {}, { limit: 50, offset: 0 })).total).toBe(1);
  });

  test('delete removes only a tool of the workspace, once', async () => {
    const tool = toolRecord(workspace);
    await store.create(tool);
    expect(await store.delete(otherWorkspace, tool.id)).toBe(false);
    expect(await store.delete(workspace, tool.id)).toBe(true);
    expect(await store.delete(workspace, tool.id)).toBe(false);
    expect(await store.get(workspace, tool.id)).toBeUndefined();
    // The name is free again.
    expect((await store.create(toolRecord(workspace, { name: tool.name }))).kind).toBe('created');
  });
}
