// Post-call summary e-mails end to end, with a real SMTP server on loopback: an analysis plan may name
// only a verified sender of the workspace; a call that ends e-mails its summary to each recipient from
// that sender through the mail outbox, each e-mail an item of GET /history with its status
// (GET /history/emails/{id}); a sender deleted before the call ends records them failed, unsent.
import { expectError } from './support/api-client.js';
import { verifiedSender, addSender } from './support/email-senders.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startTestPlatform({ VOICE_SMTP_URL: smtp.url, VOICE_MAIL_FROM: 'no-reply@voice.example.net', VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

interface EmailItem {
  id: string;
  status: string;
  sender_id: string;
  from: string;
  to: string;
  subject: string;
  call_id: string | null;
  failure_reason: string | null;
  created_at: string;
  sent_at: string | null;
}

const summaryScript = [{ say: 'Can I move my booking to Friday?' }, { analysis: { summary: 'The caller moved the booking to Friday.', verdict: 'successful' } }, { hangup: 'caller' }];

async function workspaceWithSender() {
  const workspace = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspace.id, '10.0000');
  const sender = await verifiedSender(platform, smtp, workspace.key);
  return { ...workspace, sender };
}

const planFor = (senderId: string, recipients: string[]) => ({ analysis_plan: { summary_instructions: 'Be brief.', summary_email: { sender_id: senderId, recipients } } });

/** Places a call that talks, reports its summary and ends; resolves with its id once it ended and was charged. */
async function endedCall(key: string, assistantId: string) {
  const number = await buySmsNumber(platform.api, key, { enable: false });
  const placed = await platform.api.post('/calls', key, { assistant_id: assistantId, from: number.number, to: '+14155550123', metadata: { sandbox_script: summaryScript } });
  expect(placed.status).toBe(201);
  const id = placed.body.data.id as string;
  await eventually(async () => ((await platform.api.get(`/calls/${id}`, key)).body.data.ended_at ? true : undefined), 30_000, 'the call to end');
  return id;
}

const emailsOf = async (key: string, query = '') => (await platform.api.get(`/history?channel=email${query}`, key)).body.data as { id: string; status: string; to: string }[];

test('an analysis plan names only a verified sender of the workspace, and valid recipients', async () => {
  const { key, sender } = await workspaceWithSender();
  const { sender: pending } = await addSender(platform, smtp, key);
  const other = await workspaceWithSender();
  const refused = async (body: Record<string, unknown>, field: string) => {
    const response = await platform.api.post('/assistants', key, { name: 'Summaries', ...body });
    expectError(response, 400, 'invalid_request');
    expect(JSON.stringify(response.body.error.details)).toContain(field);
  };
  const recipient = uniqueEmail('boss');
  await refused(planFor(pending.id, [recipient]), 'analysis_plan.summary_email.sender_id');
  await refused(planFor('6a0c5cf4-8f3e-4d55-9d5b-0b1b2c3d4e5f', [recipient]), 'analysis_plan.summary_email.sender_id');
  await refused(planFor(other.sender.id, [recipient]), 'analysis_plan.summary_email.sender_id');
  await refused(planFor(sender.id, []), 'analysis_plan.summary_email.recipients');
  await refused(planFor(sender.id, ['not-an-address']), 'analysis_plan.summary_email.recipients');
  await refused(planFor(sender.id, [recipient, recipient.toUpperCase()]), 'analysis_plan.summary_email.recipients');
  expect((await platform.api.get('/assistants', key)).body.data).toEqual([]);

  const created = await platform.api.post('/assistants', key, { name: 'Summaries', ...planFor(sender.id, [recipient]) });
  expect(created.status).toBe(201);
  expect(created.body.data.analysis_plan.summary_email).toEqual({ sender_id: sender.id, recipients: [recipient] });
  const moved = await platform.api.patch(`/assistants/${created.body.data.id}`, key, { ...planFor(pending.id, [recipient]), expected_revision: created.body.data.revision });
  expectError(moved, 400, 'invalid_request');
  expect((await platform.api.get(`/assistants/${created.body.data.id}`, key)).body.data.revision).toBe(created.body.data.revision);
});

test('a call that ends e-mails its summary to each recipient from the sender, once; each e-mail is a history item with its status', async () => {
  const { id: workspaceId, key, sender } = await workspaceWithSender();
  const recipients = [uniqueEmail('owner'), uniqueEmail('manager')];
  const assistant = await platform.api.post('/assistants', key, { name: 'Bookings', ...planFor(sender.id, recipients) });
  expect(assistant.status).toBe(201);
  const callId = await endedCall(key, assistant.body.data.id);

  for (const recipient of recipients) {
    const mail = await smtp.messageTo(recipient, 30_000);
    expect(mail.envelopeFrom).toBe(sender.address);
    expect(mail.parsed.from?.address).toBe(sender.address);
    expect(mail.parsed.subject).toBe('Call summary: ' + (await platform.api.get(`/calls/${callId}`, key)).body.data.from + ' to +14155550123');
    expect(mail.parsed.text).toContain('The caller moved the booking to Friday.');
    expect(mail.parsed.text).toContain(callId);
  }
  const sent = await eventually(async () => {
    const items = await emailsOf(key);
    return items.length === 2 && items.every((item) => item.status === 'sent') ? items : undefined;
  }, 15_000, 'both e-mails sent');
  expect(sent.map((item) => item.to).sort()).toEqual([...recipients].sort());

  const detail = await platform.api.get(`/history/emails/${sent[0]!.id}`, key);
  expect(detail.status).toBe(200);
  expect(detail.body.data).toEqual({
    id: sent[0]!.id,
    status: 'sent',
    sender_id: sender.id,
    from: sender.address,
    to: sent[0]!.to,
    subject: expect.stringMatching(/^Call summary: /),
    call_id: callId,
    failure_reason: null,
    created_at: expect.any(String),
    sent_at: expect.any(String),
  } satisfies EmailItem);

  // The timeline holds the call and its e-mails; a contact address finds its own e-mail only.
  const timeline = (await platform.api.get('/history', key)).body.data as { id: string; channel: string }[];
  expect(timeline.filter((item) => item.channel === 'call').map((item) => item.id)).toEqual([callId]);
  expect(timeline.filter((item) => item.channel === 'email')).toHaveLength(2);
  expect((await emailsOf(key, `&contact=${encodeURIComponent(recipients[0]!.toUpperCase())}`)).map((item) => item.to)).toEqual([recipients[0]]);
  expect((await platform.api.get(`/history?contact=${encodeURIComponent(sender.address)}`, key)).body.data).toHaveLength(2);

  // Another workspace's e-mail is 404 like a missing one; calls:read is needed.
  const other = await platform.workspace();
  expectError(await platform.api.get(`/history/emails/${sent[0]!.id}`, other.key), 404, 'not_found');
  expectError(await platform.api.get('/history/emails/not-an-id', key), 404, 'not_found');
  expectError(await platform.api.get(`/history/emails/${sent[0]!.id}`, await platform.key(workspaceId, ['settings:read'])), 403, 'forbidden');

  // One e-mail per recipient: nothing more arrives.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const recipient of recipients) expect(smtp.received.filter((mail) => mail.envelopeTo.includes(recipient))).toHaveLength(1);
});

test('a sender deleted before the call ends: the summaries are recorded failed and never sent', async () => {
  const { key, sender } = await workspaceWithSender();
  const recipient = uniqueEmail('nobody');
  const assistant = await platform.api.post('/assistants', key, { name: 'Orphaned', ...planFor(sender.id, [recipient]) });
  expect(assistant.status).toBe(201);
  expect((await platform.api.delete(`/email-senders/${sender.id}`, key)).status).toBe(200);
  const callId = await endedCall(key, assistant.body.data.id);
  const [failed] = await eventually(async () => {
    const items = await emailsOf(key);
    return items.length === 1 ? items : undefined;
  }, 15_000, 'the summary recorded');
  const detail = (await platform.api.get(`/history/emails/${failed!.id}`, key)).body.data as EmailItem;
  expect(detail).toMatchObject({ status: 'failed', failure_reason: 'the sender was deleted', call_id: callId, to: recipient, from: '', sent_at: null });
  expect(smtp.received.some((mail) => mail.envelopeTo.includes(recipient))).toBe(false);
});
