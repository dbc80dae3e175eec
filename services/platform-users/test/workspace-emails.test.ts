// WorkspaceEmailService through Connect's router transport, with a real SQLite mail outbox: a
// workspace's e-mail goes from its verified sender, once per id however often it is queued (the
// calls service's retries), internal callers only; an unverified or deleted sender records it failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@connectrpc/connect';
import { WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import { SecretBox } from '@voice/runtime/crypto';
import { derivedId, newId } from '@voice/runtime/ids';
import { WorkspaceEmails } from '../src/email/workspace-emails.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import type { PlatformUsersStore } from '../src/store/store.js';
import { senderRecord, newMail } from './store.contract.js';
import { failure, routerClient } from '../../runtime/test/service-tiers.js';

let dir: string;
let store: PlatformUsersStore;
const box = new SecretBox(randomBytes(32));
let woken = 0;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'workspace-emails-'));
  store = await openSqlitePlatformUsersStore(join(dir, 'platform-users.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const tier = () => {
  const emails = new WorkspaceEmails({ store, box, mailQueued: () => void (woken += 1), now: () => new Date() });
  return routerClient(WorkspaceEmailService, (router) => router.service(WorkspaceEmailService, emails));
};

async function sender(workspaceId: string, status: 'pending' | 'verified') {
  const record = senderRecord(workspaceId, { status, confirmationHash: status === 'pending' ? 'hash' : null });
  await store.insertSenderWithMail(record, newMail());
  return record;
}

const summary = (senderId: string, callId: string, recipients: string[]) => ({
  senderId,
  callId,
  subject: 'Call summary',
  text: 'The caller <booked> Friday.',
  recipients: recipients.map((to) => ({ emailId: derivedId('call-summary-email', callId, to), to })),
});

test('queued from a verified sender, once per id however often it is asked', async () => {
  const { client, as } = tier();
  const workspaceId = newId();
  const internal = as({ workspaceId, principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null });
  const from = await sender(workspaceId, 'verified');
  const request = summary(from.id, newId(), ['ann@example.com', 'bob@example.com']);
  const first = await client.queueWorkspaceEmail(request, internal);
  expect(first.emails.map((email) => [email.to, email.from, email.status])).toEqual([
    ['ann@example.com', from.address, 'queued'],
    ['bob@example.com', from.address, 'queued'],
  ]);
  const again = await client.queueWorkspaceEmail({ ...request, subject: 'Another subject' }, internal);
  expect(again.emails.map((email) => [email.id, email.subject])).toEqual(first.emails.map((email) => [email.id, 'Call summary']));
  const due = (await store.dueMail(new Date(Date.now() + 1000).toISOString(), 10)).filter((mail) => mail.workspace);
  expect(due.map((mail) => mail.to).sort()).toEqual(['ann@example.com', 'bob@example.com']);
  expect(box.open(due[0]!.sealedHtml!)).toBe('<p>The caller &lt;booked&gt; Friday.</p>');
  expect(woken).toBeGreaterThan(0);
  expect((await client.listWorkspaceEmails({}, internal)).total).toBe(2);
  expect((await client.getWorkspaceEmail({ id: first.emails[0]!.id }, internal)).email?.to).toBe('ann@example.com');
  expect(await failure(client.getWorkspaceEmail({ id: first.emails[0]!.id }, as({ workspaceId: newId(), principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null })))).toMatchObject({ code: Code.NotFound });
});

test('an unverified or deleted sender records the e-mail failed, unsent', async () => {
  const { client, as } = tier();
  const workspaceId = newId();
  const internal = as({ workspaceId, principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null });
  const pending = await sender(workspaceId, 'pending');
  const [unverified] = (await client.queueWorkspaceEmail(summary(pending.id, newId(), ['ann@example.com']), internal)).emails;
  expect(unverified).toMatchObject({ status: 'failed', failureReason: 'the sender is not verified', from: pending.address });
  const [deleted] = (await client.queueWorkspaceEmail(summary(newId(), newId(), ['bob@example.com']), internal)).emails;
  expect(deleted).toMatchObject({ status: 'failed', failureReason: 'the sender was deleted', from: '' });
  // Only the senders' own confirmation e-mails wait to be sent.
  expect((await store.dueMail(new Date(Date.now() + 1000).toISOString(), 10)).filter((mail) => mail.workspace)).toEqual([]);
});

test('public callers and bad requests are refused', async () => {
  const { client, inWorkspace, as } = tier();
  const workspaceId = newId();
  const from = await sender(workspaceId, 'verified');
  expect(await failure(client.queueWorkspaceEmail(summary(from.id, newId(), ['ann@example.com']), inWorkspace(workspaceId)))).toMatchObject({ code: Code.PermissionDenied });
  const internal = as({ workspaceId, principal: { type: 'internal', id: 'calls', name: 'calls' }, scopes: null });
  const bad = { ...summary(from.id, newId(), ['not-an-address']), subject: 'two\nlines' };
  const refused = await failure(client.queueWorkspaceEmail({ ...bad, recipients: [...bad.recipients, { emailId: 'x', to: 'c@example.com' }] }, internal));
  expect(refused.fields?.map((field) => field.field).sort()).toEqual(['recipients.0.to', 'recipients.1.email_id', 'subject']);
  expect(await failure(client.queueWorkspaceEmail({ ...summary(from.id, newId(), []) }, internal))).toMatchObject({ fields: [{ field: 'recipients' }] });
});
