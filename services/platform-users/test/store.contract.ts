// The CustomDomainStore contract: every adapter must pass it.
import { newId } from '@voice/runtime';
import type { CustomDomainRecord, CustomDomainStore } from '../src/store/store.js';

let sequence = Math.floor(Math.random() * 1_000_000);

export const domainRecord = (workspaceId: string, overrides: Partial<CustomDomainRecord> = {}): CustomDomainRecord => ({
  workspaceId,
  domain: `voice-${(sequence += 1)}.example.com`,
  token: `token-${sequence}`,
  status: 'pending_verification',
  missing: [],
  createdAt: '2026-11-22T10:00:00.000Z',
  checkedAt: null,
  verifiedAt: null,
  ...overrides,
});

const missingTxt = [{ expected: { type: 'TXT' as const, name: '_voice-verification.x.example.com', value: 'voice-verification=t' }, found: ['other'] }];

export function customDomainStoreContract(open: () => Promise<CustomDomainStore>): void {
  let store: CustomDomainStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  test('a workspace connects one domain; a domain belongs to one workspace', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    expect(await store.insert(record)).toEqual({ kind: 'created', record });
    expect(await store.get(workspace)).toEqual(record);
    expect(await store.insert(domainRecord(workspace))).toEqual({ kind: 'workspace_has_domain' });
    expect(await store.insert(domainRecord(newId(), { domain: record.domain }))).toEqual({ kind: 'domain_taken' });
    expect(await store.get(newId())).toBeUndefined();
  });

  test('verifications are recorded, and only active domains resolve', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    await store.insert(record);
    const pending = await store.recordVerification(workspace, record.domain, {
      status: 'pending_verification',
      missing: missingTxt,
      checkedAt: '2026-11-22T10:01:00.000Z',
      verifiedAt: null,
    });
    expect(pending).toEqual({ ...record, missing: missingTxt, checkedAt: '2026-11-22T10:01:00.000Z' });
    expect(await store.findActive(record.domain)).toBeUndefined();
    const active = await store.recordVerification(workspace, record.domain, {
      status: 'active',
      missing: [],
      checkedAt: '2026-11-22T10:02:00.000Z',
      verifiedAt: '2026-11-22T10:02:00.000Z',
    });
    expect(active).toMatchObject({ status: 'active', missing: [], verifiedAt: '2026-11-22T10:02:00.000Z' });
    expect(await store.findActive(record.domain)).toEqual(active);
  });

  test('a verification of a domain the workspace no longer has changes nothing', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    await store.insert(record);
    const result = { status: 'active' as const, missing: [], checkedAt: '2026-11-22T10:01:00.000Z', verifiedAt: '2026-11-22T10:01:00.000Z' };
    expect(await store.recordVerification(workspace, 'other.example.com', result)).toBeUndefined();
    expect(await store.recordVerification(newId(), record.domain, result)).toBeUndefined();
    expect(await store.get(workspace)).toEqual(record);
  });

  test('removal frees the workspace and the domain', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    await store.insert(record);
    expect(await store.remove(workspace)).toEqual(record);
    expect(await store.remove(workspace)).toBeUndefined();
    expect(await store.get(workspace)).toBeUndefined();
    expect((await store.insert(domainRecord(newId(), { domain: record.domain }))).kind).toBe('created');
  });
}
