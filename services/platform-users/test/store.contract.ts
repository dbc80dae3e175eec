// The PlatformUsersStore contract (custom domains, invitations, the mail outbox, e-mail senders and a
// workspace's own e-mail): every adapter must pass it.
import { newId } from '@voice/runtime/ids';
import { workspaceMailStatusOf, type CustomDomainRecord, type EmailSenderRecord, type InvitationRecord, type NewMail, type PlatformUsersStore } from '../src/store/store.js';
import type { OpenSameStorage, OpenStore } from '../../runtime/test/store-contract.js';

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
  expiresAt: '2026-11-29T10:00:00.000Z',
  ...overrides,
});

const missingTxt = [{ expected: { type: 'TXT' as const, name: '_voice-verification.x.example.com', value: 'voice-verification=t' }, found: ['other'] }];

export const invitationRecord = (overrides: Partial<InvitationRecord> = {}): InvitationRecord => ({
  id: newId(),
  tokenHash: `hash-${newId()}`,
  userId: newId(),
  platformWorkspaceId: newId(),
  workspaceId: null,
  signIn: false,
  email: `user-${(sequence += 1)}@example.com`,
  name: 'Ada Lovelace',
  expiresAt: '2026-11-29T10:00:00.000Z',
  acceptedAt: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

export const newMail = (overrides: Partial<NewMail> = {}): NewMail => ({
  id: newId(),
  to: `user-${(sequence += 1)}@example.com`,
  subject: "You're invited to Acme",
  sealedText: 'enc:v1:text',
  sealedHtml: 'enc:v1:html',
  createdAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

/** The stores' clock in these tests: after the records' createdAt, before their expiresAt. */
const now = '2026-11-22T12:00:00.000Z';
const verified = (at: string) => ({ status: 'active' as const, missing: [], checkedAt: at, verifiedAt: at, expiresAt: null });

function customDomainContract(open: OpenStore<PlatformUsersStore>): void {
  let store: PlatformUsersStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  test('a workspace connects one domain; an active domain belongs to one workspace', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    expect(await store.insert(record, now)).toEqual({ kind: 'created', record });
    expect(await store.get(workspace, now)).toEqual(record);
    expect(await store.insert(domainRecord(workspace), now)).toEqual({ kind: 'workspace_has_domain' });
    expect(await store.get(newId(), now)).toBeUndefined();
    await store.recordVerification(workspace, record.domain, verified('2026-11-22T10:05:00.000Z'));
    expect(await store.insert(domainRecord(newId(), { domain: record.domain }), now)).toEqual({ kind: 'domain_taken' });
  });

  test('pending claims do not block a domain; the first to verify wins and the other claims are dropped', async () => {
    const [squatter, owner, third] = [newId(), newId(), newId()];
    const claim = domainRecord(squatter);
    expect((await store.insert(claim, now)).kind).toBe('created');
    expect((await store.insert(domainRecord(owner, { domain: claim.domain }), now)).kind).toBe('created');
    expect((await store.insert(domainRecord(third, { domain: claim.domain }), now)).kind).toBe('created');
    const won = await store.recordVerification(owner, claim.domain, verified('2026-11-22T10:05:00.000Z'));
    expect(won).toMatchObject({ kind: 'recorded', record: { workspaceId: owner, status: 'active', expiresAt: null } });
    expect(await store.findActive(claim.domain)).toMatchObject({ workspaceId: owner });
    expect(await store.get(squatter, now)).toBeUndefined();
    expect(await store.get(third, now)).toBeUndefined();
    // A verification that was checking DNS while the owner won is told so.
    expect(await store.recordVerification(squatter, claim.domain, verified('2026-11-22T10:06:00.000Z'))).toEqual({ kind: 'taken' });
  });

  test('concurrent verifications of one domain: exactly one workspace gets it', async () => {
    const workspaces = [newId(), newId(), newId(), newId()];
    const domain = domainRecord(newId()).domain;
    for (const workspace of workspaces) await store.insert(domainRecord(workspace, { domain }), now);
    const outcomes = await Promise.all(workspaces.map((workspace) => store.recordVerification(workspace, domain, verified('2026-11-22T10:05:00.000Z'))));
    expect(outcomes.filter((outcome) => outcome.kind === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'taken')).toHaveLength(3);
    expect(outcomes.every((outcome) => outcome.kind !== 'recorded' || outcome.record.status === 'active')).toBe(true);
    const winner = workspaces[outcomes.findIndex((outcome) => outcome.kind === 'recorded')]!;
    expect(await store.findActive(domain)).toMatchObject({ workspaceId: winner });
    for (const workspace of workspaces) expect((await store.get(workspace, now))?.workspaceId).toBe(workspace === winner ? winner : undefined);
  });

  test('a lapsed pending claim is no claim: the workspace may make a new one', async () => {
    const workspace = newId();
    const record = domainRecord(workspace, { expiresAt: '2026-11-29T10:00:00.000Z' });
    await store.insert(record, now);
    expect(await store.get(workspace, '2026-11-29T09:59:59.999Z')).toEqual(record);
    expect(await store.get(workspace, '2026-11-29T10:00:00.000Z')).toBeUndefined();
    expect(await store.insert(domainRecord(workspace), '2026-11-28T10:00:00.000Z')).toEqual({ kind: 'workspace_has_domain' });
    const next = domainRecord(workspace, { expiresAt: '2026-12-06T10:00:00.000Z' });
    expect(await store.insert(next, '2026-11-29T10:00:00.000Z')).toEqual({ kind: 'created', record: next });
    expect(await store.get(workspace, '2026-11-29T10:00:00.000Z')).toEqual(next);
  });

  test('verifications are recorded, and only active domains resolve', async () => {
    const workspace = newId();
    const record = domainRecord(workspace, { expiresAt: '2026-11-29T10:00:00.000Z' });
    await store.insert(record, now);
    const pending = await store.recordVerification(workspace, record.domain, {
      status: 'pending_verification',
      missing: missingTxt,
      checkedAt: '2026-11-22T10:01:00.000Z',
      verifiedAt: null,
      expiresAt: record.expiresAt,
    });
    expect(pending).toEqual({ kind: 'recorded', record: { ...record, missing: missingTxt, checkedAt: '2026-11-22T10:01:00.000Z' } });
    expect(await store.findActive(record.domain)).toBeUndefined();
    const active = await store.recordVerification(workspace, record.domain, verified('2026-11-22T10:02:00.000Z'));
    expect(active).toMatchObject({ kind: 'recorded', record: { status: 'active', missing: [], verifiedAt: '2026-11-22T10:02:00.000Z', expiresAt: null } });
    expect(await store.findActive(record.domain)).toEqual(active.kind === 'recorded' ? active.record : undefined);
  });

  test('a verification of a domain the workspace no longer has changes nothing', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    await store.insert(record, now);
    const result = verified('2026-11-22T10:01:00.000Z');
    expect(await store.recordVerification(workspace, 'other.example.com', result)).toEqual({ kind: 'gone' });
    expect(await store.recordVerification(newId(), record.domain, result)).toEqual({ kind: 'gone' });
    expect(await store.get(workspace, now)).toEqual(record);
  });

  test('removal frees the workspace and the domain', async () => {
    const workspace = newId();
    const record = domainRecord(workspace);
    await store.insert(record, now);
    await store.recordVerification(workspace, record.domain, verified('2026-11-22T10:01:00.000Z'));
    expect(await store.remove(workspace)).toMatchObject({ workspaceId: workspace, domain: record.domain });
    expect(await store.remove(workspace)).toBeUndefined();
    expect(await store.get(workspace, now)).toBeUndefined();
    expect((await store.insert(domainRecord(newId(), { domain: record.domain }), now)).kind).toBe('created');
  });
}

function invitationsAndMailContract(open: OpenStore<PlatformUsersStore>, openSameStorage: OpenSameStorage<PlatformUsersStore>): void {
  let store: PlatformUsersStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  test('an invitation and its mail are stored together and found by the token hash', async () => {
    const invitation = invitationRecord();
    const mail = newMail({ to: invitation.email });
    await store.insertInvitationWithMail(invitation, mail);
    expect(await store.findInvitationByTokenHash(invitation.tokenHash)).toEqual(invitation);
    expect(await store.findInvitationByTokenHash('unknown')).toBeUndefined();
    expect(await store.getMail(mail.id)).toEqual({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      sealedText: mail.sealedText,
      sealedHtml: mail.sealedHtml,
      attempts: 0,
      nextAttemptAt: mail.createdAt,
      sentAt: null,
      lastError: null,
      createdAt: mail.createdAt,
      from: null,
      workspace: null,
    });
  });

  test('a token hash names one invitation: a duplicate writes neither the invitation nor its mail', async () => {
    const first = invitationRecord();
    await store.insertInvitationWithMail(first, newMail());
    const duplicateMail = newMail();
    await expect(store.insertInvitationWithMail(invitationRecord({ tokenHash: first.tokenHash }), duplicateMail)).rejects.toBeDefined();
    expect(await store.getMail(duplicateMail.id)).toBeUndefined();
  });

  test('invitation statuses of a page of users come in one answer', async () => {
    const pending = invitationRecord();
    const accepted = invitationRecord();
    await store.insertInvitationWithMail(pending, newMail());
    await store.insertInvitationWithMail(accepted, newMail());
    expect(await store.markInvitationAccepted(accepted.id, '2026-11-23T10:00:00.000Z')).toBe(true);
    const statuses = await store.invitationStatuses([pending.userId, accepted.userId, newId()]);
    expect(Object.fromEntries(statuses)).toEqual({ [pending.userId]: 'pending', [accepted.userId]: 'accepted' });
    expect((await store.invitationStatuses([])).size).toBe(0);
  });

  test('a member invitation reads back whole, and counts for no registration’s status', async () => {
    const joining = invitationRecord({ workspaceId: newId(), signIn: true });
    await store.insertInvitationWithMail(joining, newMail());
    expect(await store.findInvitationByTokenHash(joining.tokenHash)).toEqual(joining);
    expect((await store.invitationStatuses([joining.userId])).size).toBe(0);
  });

  test('an invitation is accepted once', async () => {
    const invitation = invitationRecord();
    await store.insertInvitationWithMail(invitation, newMail());
    expect(await store.markInvitationAccepted(invitation.id, '2026-11-23T10:00:00.000Z')).toBe(true);
    expect(await store.markInvitationAccepted(invitation.id, '2026-11-23T11:00:00.000Z')).toBe(false);
    expect((await store.findInvitationByTokenHash(invitation.tokenHash))?.acceptedAt).toBe('2026-11-23T10:00:00.000Z');
    expect(await store.markInvitationAccepted(newId(), '2026-11-23T10:00:00.000Z')).toBe(false);
  });

  test('of concurrent acceptances on two connections exactly one wins', async () => {
    const other = await openSameStorage();
    try {
      const invitations = Array.from({ length: 10 }, () => invitationRecord());
      for (const invitation of invitations) await store.insertInvitationWithMail(invitation, newMail());
      for (const invitation of invitations) {
        const results = await Promise.all([
          store.markInvitationAccepted(invitation.id, '2026-11-23T10:00:00.000Z'),
          other.markInvitationAccepted(invitation.id, '2026-11-23T10:00:00.001Z'),
          store.markInvitationAccepted(invitation.id, '2026-11-23T10:00:00.002Z'),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
      }
    } finally {
      await other.close();
    }
  });

  test('due mail comes longest-waiting first, and only when due', async () => {
    const later = newMail({ createdAt: '2026-11-22T10:00:05.000Z' });
    const earlier = newMail({ createdAt: '2026-11-22T10:00:01.000Z' });
    await store.insertInvitationWithMail(invitationRecord(), later);
    await store.insertInvitationWithMail(invitationRecord(), earlier);
    const due = await store.dueMail('2026-11-22T10:00:05.000Z', 100);
    expect(due.map((mail) => mail.id).filter((id) => id === later.id || id === earlier.id)).toEqual([earlier.id, later.id]);
    const early = await store.dueMail('2026-11-22T10:00:02.000Z', 100);
    expect(early.some((mail) => mail.id === later.id)).toBe(false);
    expect(early.some((mail) => mail.id === earlier.id)).toBe(true);
  });

  test('a lease takes due mail for one sender until it ends', async () => {
    const mail = newMail({ createdAt: '2026-11-22T10:00:00.000Z' });
    await store.insertInvitationWithMail(invitationRecord(), mail);
    const [first, second] = await Promise.all([
      store.leaseMail(mail.id, mail.createdAt, '2026-11-22T10:02:00.000Z'),
      store.leaseMail(mail.id, mail.createdAt, '2026-11-22T10:02:00.000Z'),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect((await store.dueMail('2026-11-22T10:01:00.000Z', 100)).some((due) => due.id === mail.id)).toBe(false);
    expect((await store.dueMail('2026-11-22T10:02:00.000Z', 100)).some((due) => due.id === mail.id)).toBe(true);
  });

  test('queued mail is due at once and queued once per id, whatever the later copies say', async () => {
    const [first, second] = [newMail(), newMail()];
    expect(await store.queueMail([first, second])).toBe(2);
    expect(await store.queueMail([{ ...first, subject: 'another' }])).toBe(0);
    expect(await store.getMail(first.id)).toMatchObject({ to: first.to, subject: first.subject, sealedText: first.sealedText, attempts: 0, nextAttemptAt: first.createdAt });
    expect((await store.dueMail(first.createdAt, 100)).map((due) => due.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  test('a failed attempt is counted and the mail waits; giving up wipes the bodies', async () => {
    const mail = newMail();
    await store.insertInvitationWithMail(invitationRecord(), mail);
    await store.markMailFailed(mail.id, 'connection refused', '2026-11-22T10:00:01.000Z');
    expect(await store.getMail(mail.id)).toMatchObject({ attempts: 1, lastError: 'connection refused', nextAttemptAt: '2026-11-22T10:00:01.000Z', sealedText: mail.sealedText });
    expect((await store.dueMail('2026-11-22T10:00:00.500Z', 100)).some((due) => due.id === mail.id)).toBe(false);
    await store.markMailFailed(mail.id, 'greeting never received', null);
    expect(await store.getMail(mail.id)).toMatchObject({ attempts: 2, lastError: 'greeting never received', nextAttemptAt: null, sealedText: null, sealedHtml: null, sentAt: null });
    expect((await store.dueMail('2030-01-01T00:00:00.000Z', 100)).some((due) => due.id === mail.id)).toBe(false);
  });

  test('sent mail is never due again and keeps no body', async () => {
    const mail = newMail();
    await store.insertInvitationWithMail(invitationRecord(), mail);
    await store.markMailSent(mail.id, '2026-11-22T10:00:03.000Z');
    expect(await store.getMail(mail.id)).toMatchObject({ sentAt: '2026-11-22T10:00:03.000Z', nextAttemptAt: null, sealedText: null, sealedHtml: null });
    expect((await store.dueMail('2030-01-01T00:00:00.000Z', 100)).some((due) => due.id === mail.id)).toBe(false);
    await store.markMailFailed(mail.id, 'late failure', '2026-11-22T10:00:04.000Z');
    expect(await store.getMail(mail.id)).toMatchObject({ sentAt: '2026-11-22T10:00:03.000Z', attempts: 0, nextAttemptAt: null });
  });

  test('pruning deletes mail sent or given up before the cut-off, the oldest first and at most the batch; waiting mail stays', async () => {
    const cutOff = '2026-11-10T00:00:00.000Z';
    const [sentEarly, givenUp, sentLate, waiting] = [
      newMail({ createdAt: '2026-11-01T00:00:00.000Z' }),
      newMail({ createdAt: '2026-11-02T00:00:00.000Z' }),
      newMail({ createdAt: '2026-11-03T00:00:00.000Z' }),
      newMail({ createdAt: '2026-11-01T00:00:00.000Z' }),
    ];
    for (const mail of [sentEarly, givenUp, sentLate, waiting]) await store.insertInvitationWithMail(invitationRecord(), mail);
    await store.markMailSent(sentEarly.id, '2026-11-01T00:00:01.000Z');
    await store.markMailFailed(givenUp.id, 'mailbox unavailable', null);
    // Created before the cut-off, but sent after it: kept for its full retention from the sending.
    await store.markMailSent(sentLate.id, '2026-11-11T00:00:00.000Z');
    await store.markMailFailed(waiting.id, 'connection refused', '2026-11-01T00:05:00.000Z');

    expect(await store.pruneFinishedMail(cutOff, 1)).toBe(1);
    expect(await store.getMail(sentEarly.id)).toBeUndefined();
    expect(await store.pruneFinishedMail(cutOff, 10)).toBe(1);
    expect(await store.pruneFinishedMail(cutOff, 10)).toBe(0);
    expect(await store.getMail(givenUp.id)).toBeUndefined();
    expect(await store.getMail(sentLate.id)).toMatchObject({ sentAt: '2026-11-11T00:00:00.000Z' });
    expect(await store.getMail(waiting.id)).toMatchObject({ attempts: 1, nextAttemptAt: '2026-11-01T00:05:00.000Z' });
  });
}

export const senderRecord = (workspaceId: string, overrides: Partial<EmailSenderRecord> = {}): EmailSenderRecord => ({
  id: newId(),
  workspaceId,
  address: `sender-${(sequence += 1)}@example.com`,
  name: 'Support',
  status: 'pending',
  confirmationHash: `hash-${newId()}`,
  createdAt: '2026-11-22T10:00:00.000Z',
  verifiedAt: null,
  ...overrides,
});

function emailContract(open: OpenStore<PlatformUsersStore>, openSameStorage: OpenSameStorage<PlatformUsersStore>): void {
  let store: PlatformUsersStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  test('a sender and its confirmation e-mail are stored together; an address is one sender per workspace', async () => {
    const workspace = newId();
    const sender = senderRecord(workspace);
    const mail = newMail({ to: sender.address });
    expect(await store.insertSenderWithMail(sender, mail)).toBe('created');
    expect(await store.getSender(workspace, sender.id)).toEqual(sender);
    expect(await store.getSenderById(sender.id)).toEqual(sender);
    expect(await store.getMail(mail.id)).toMatchObject({ to: sender.address, nextAttemptAt: mail.createdAt, workspace: null, from: null });

    const again = newMail();
    expect(await store.insertSenderWithMail(senderRecord(workspace, { address: sender.address }), again)).toBe('address_taken');
    expect(await store.getMail(again.id)).toBeUndefined();
    expect(await store.insertSenderWithMail(senderRecord(newId(), { address: sender.address }), newMail())).toBe('created');
    expect(await store.getSender(newId(), sender.id)).toBeUndefined();
  });

  test('senders list oldest first, a page at a time, with the total', async () => {
    const workspace = newId();
    const senders = ['2026-11-22T10:00:03.000Z', '2026-11-22T10:00:01.000Z', '2026-11-22T10:00:02.000Z'].map((createdAt) => senderRecord(workspace, { createdAt }));
    for (const sender of senders) await store.insertSenderWithMail(sender, newMail());
    const first = await store.listSenders(workspace, { limit: 2, offset: 0 });
    expect(first.total).toBe(3);
    expect(first.senders.map((sender) => sender.id)).toEqual([senders[1]!.id, senders[2]!.id]);
    expect((await store.listSenders(workspace, { limit: 2, offset: 2 })).senders.map((sender) => sender.id)).toEqual([senders[0]!.id]);
    expect(await store.listSenders(newId(), { limit: 10, offset: 0 })).toEqual({ senders: [], total: 0 });
  });

  test('a sender is verified once, and only by its pending confirmation', async () => {
    const sender = senderRecord(newId());
    await store.insertSenderWithMail(sender, newMail());
    expect(await store.verifySender(sender.id, 'hash-of-another-link', '2026-11-22T11:00:00.000Z')).toBeUndefined();
    const verified = await store.verifySender(sender.id, sender.confirmationHash!, '2026-11-22T11:00:00.000Z');
    expect(verified).toEqual({ ...sender, status: 'verified', confirmationHash: null, verifiedAt: '2026-11-22T11:00:00.000Z' });
    expect(await store.verifySender(sender.id, sender.confirmationHash!, '2026-11-22T11:00:01.000Z')).toBeUndefined();
    expect(await store.getSender(sender.workspaceId, sender.id)).toEqual(verified);
  });

  test('of concurrent confirmations on two connections exactly one verifies', async () => {
    const sender = senderRecord(newId());
    await store.insertSenderWithMail(sender, newMail());
    const other = await openSameStorage();
    try {
      const outcomes = await Promise.all([store, other, store, other].map((each) => each.verifySender(sender.id, sender.confirmationHash!, '2026-11-22T11:00:00.000Z')));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  test('a sender is deleted only by its workspace', async () => {
    const sender = senderRecord(newId());
    await store.insertSenderWithMail(sender, newMail());
    expect(await store.deleteSender(newId(), sender.id)).toBe(false);
    expect(await store.deleteSender(sender.workspaceId, sender.id)).toBe(true);
    expect(await store.deleteSender(sender.workspaceId, sender.id)).toBe(false);
    expect(await store.getSenderById(sender.id)).toBeUndefined();
  });

  const workspaceMail = (workspaceId: string, overrides: Partial<NewMail> = {}): NewMail =>
    newMail({ from: 'support@example.com', workspace: { workspaceId, senderId: newId(), callId: newId() }, subject: 'Call summary', ...overrides });

  test("a workspace's e-mail keeps its From and origin, lists newest first and is its workspace's alone", async () => {
    const workspace = newId();
    const [older, newer] = [workspaceMail(workspace, { createdAt: '2026-11-22T10:00:01.000Z' }), workspaceMail(workspace, { createdAt: '2026-11-22T10:00:02.000Z' })];
    expect(await store.queueMail([older, newer, newMail()])).toBe(3);
    expect(await store.getWorkspaceMail(workspace, older.id)).toMatchObject({ from: 'support@example.com', workspace: older.workspace, to: older.to, subject: 'Call summary' });
    expect(await store.getWorkspaceMail(newId(), older.id)).toBeUndefined();
    const page = await store.listWorkspaceMail(workspace, {}, { limit: 1, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.mails.map((mail) => mail.id)).toEqual([newer.id]);
    expect((await store.listWorkspaceMail(workspace, {}, { limit: 5, offset: 1 })).mails.map((mail) => mail.id)).toEqual([older.id]);
    expect((await store.listWorkspaceMail(newId(), {}, { limit: 5, offset: 0 })).total).toBe(0);
  });

  test("a workspace's e-mail filters by an address it is from or to, and by creation time", async () => {
    const workspace = newId();
    const first = workspaceMail(workspace, { to: 'ann@example.com', from: 'desk@example.com', createdAt: '2026-11-22T10:00:01.000Z' });
    const second = workspaceMail(workspace, { to: 'bob@example.com', from: 'desk@example.com', createdAt: '2026-11-22T10:00:02.000Z' });
    const third = workspaceMail(workspace, { to: 'desk@example.com', from: 'sales@example.com', createdAt: '2026-11-22T10:00:03.000Z' });
    await store.queueMail([first, second, third]);
    const ids = async (filter: Parameters<PlatformUsersStore['listWorkspaceMail']>[1]) =>
      (await store.listWorkspaceMail(workspace, filter, { limit: 10, offset: 0 })).mails.map((mail) => mail.id);
    expect(await ids({ address: 'ann@example.com' })).toEqual([first.id]);
    expect(await ids({ address: 'desk@example.com' })).toEqual([third.id, second.id, first.id]);
    expect(await ids({ createdFrom: '2026-11-22T10:00:02.000Z' })).toEqual([third.id, second.id]);
    expect(await ids({ createdTo: '2026-11-22T10:00:02.000Z' })).toEqual([first.id]);
    expect(await ids({ address: 'desk@example.com', createdFrom: '2026-11-22T10:00:02.000Z', createdTo: '2026-11-22T10:00:03.000Z' })).toEqual([second.id]);
  });

  test("a workspace's e-mail queued with a failure is failed at once and never sent; its status follows the outbox", async () => {
    const workspace = newId();
    const refused = workspaceMail(workspace, { failure: 'the sender is not verified' });
    const queued = workspaceMail(workspace);
    await store.queueMail([refused, queued]);
    const stored = await store.getWorkspaceMail(workspace, refused.id);
    expect(stored).toMatchObject({ attempts: 0, lastError: 'the sender is not verified', nextAttemptAt: null, sealedText: null, sentAt: null });
    expect(workspaceMailStatusOf(stored!)).toBe('failed');
    expect((await store.dueMail('2030-01-01T00:00:00.000Z', 100)).some((due) => due.id === refused.id)).toBe(false);
    expect(workspaceMailStatusOf((await store.getWorkspaceMail(workspace, queued.id))!)).toBe('queued');
    await store.markMailSent(queued.id, '2026-11-22T10:00:09.000Z');
    expect(workspaceMailStatusOf((await store.getWorkspaceMail(workspace, queued.id))!)).toBe('sent');
  });

  test("pruning keeps a workspace's e-mail, however old: it is the workspace's history", async () => {
    const workspace = newId();
    const [kept, platformMail] = [workspaceMail(workspace, { createdAt: '2026-11-01T00:00:00.000Z' }), newMail({ createdAt: '2026-11-01T00:00:00.000Z' })];
    await store.queueMail([kept, platformMail]);
    await store.markMailSent(kept.id, '2026-11-01T00:00:01.000Z');
    await store.markMailSent(platformMail.id, '2026-11-01T00:00:01.000Z');
    while ((await store.pruneFinishedMail('2026-11-10T00:00:00.000Z', 100)) > 0);
    expect(await store.getMail(platformMail.id)).toBeUndefined();
    expect(await store.getWorkspaceMail(workspace, kept.id)).toMatchObject({ sentAt: '2026-11-01T00:00:01.000Z' });
  });
}

export function platformUsersStoreContract(open: OpenStore<PlatformUsersStore>, openSameStorage: OpenSameStorage<PlatformUsersStore>): void {
  describe('custom domains', () => customDomainContract(open));
  describe('invitations and mail', () => invitationsAndMailContract(open, openSameStorage));
  describe('e-mail senders and workspace e-mail', () => emailContract(open, openSameStorage));
}
