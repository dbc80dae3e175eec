// NoticeService through Connect's router transport, with a real SQLite mail outbox and a stand-in
// for identity's member list: one mail per active owner, once per notice id, internal callers only.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { MemberSchema } from '@voice/proto/voice/identity/v1/identity';
import { NoticeService } from '@voice/proto/voice/platform/v1/notices';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import type { IdentityCalls } from '../src/downstream/identity.js';
import { Notices } from '../src/notices/notices.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import type { PlatformUsersStore } from '../src/store/store.js';
import { failure, routerClient } from '../../runtime/test/service-tiers.js';

let dir: string;
let store: PlatformUsersStore;
const box = new SecretBox(randomBytes(32));
let woken = 0;
const members = [
  create(MemberSchema, { userId: newId(), email: 'olive@customers.example', role: 'owner', status: 'active' }),
  create(MemberSchema, { userId: newId(), email: 'otto@customers.example', role: 'owner', status: 'suspended' }),
  create(MemberSchema, { userId: newId(), email: 'ada@customers.example', role: 'admin', status: 'active' }),
  create(MemberSchema, { userId: newId(), email: 'oona@customers.example', role: 'owner', status: 'active' }),
];
const identity = { listMembers: async () => ({ members, total: members.length }) } as unknown as IdentityCalls;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notices-'));
  store = await openSqlitePlatformUsersStore(join(dir, 'platform-users.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const tier = () => {
  const notices = new Notices({ identity, store, box, mailQueued: () => void (woken += 1), now: () => new Date() });
  return routerClient(NoticeService, (router) => router.service(NoticeService, { sendWorkspaceNotice: (request, context) => notices.send(request, context) }));
};

test('a notice is queued once to every active owner, sealed, however often it is sent', async () => {
  const { client, as } = tier();
  const internal = as({ workspaceId: newId(), principal: { type: 'internal', id: 'webhooks', name: 'webhooks' }, scopes: null });
  const request = { noticeId: newId(), subject: 'A webhook endpoint was disabled', text: 'It failed <for days>.\n\nEnable it again.' };
  expect((await client.sendWorkspaceNotice(request, internal)).queued).toBe(2);
  expect((await client.sendWorkspaceNotice(request, internal)).queued).toBe(0);
  const due = await store.dueMail(new Date(Date.now() + 1000).toISOString(), 10);
  expect(due.map((mail) => mail.to).sort()).toEqual(['olive@customers.example', 'oona@customers.example']);
  expect(box.open(due[0]!.sealedText!)).toBe(request.text);
  expect(box.open(due[0]!.sealedHtml!)).toBe('<p>It failed &lt;for days&gt;.</p><p>Enable it again.</p>');
  expect(woken).toBeGreaterThan(0);
});

test('public callers and bad notices are refused', async () => {
  const { client, inWorkspace, as } = tier();
  expect(await failure(client.sendWorkspaceNotice({ noticeId: newId(), subject: 's', text: 't' }, inWorkspace(newId())))).toMatchObject({ code: Code.PermissionDenied });
  const internal = as({ workspaceId: newId(), principal: { type: 'internal', id: 'webhooks', name: 'webhooks' }, scopes: null });
  expect(await failure(client.sendWorkspaceNotice({ noticeId: 'nope', subject: 'two\nlines', text: '' }, internal))).toMatchObject({
    code: Code.InvalidArgument,
    fields: [{ field: 'notice_id' }, { field: 'subject' }, { field: 'text' }],
  });
  expect(await store.dueMail(new Date(Date.now() + 1000).toISOString(), 10)).toEqual([]);
});
