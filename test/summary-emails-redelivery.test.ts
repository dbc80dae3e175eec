// A call's ended event delivered again (as JetStream does after a consumer dies before its ack) sends
// no second summary: the e-mails are named by the call and the recipient, and the outbox queues a name
// once. Single-process: the test publishes the copy through the process's event stream.
import { create, toBinary } from '@bufbuild/protobuf';
import { callEndedSubject } from '@voice/runtime/events';
import { newId } from '@voice/runtime/ids';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { verifiedSender } from './support/email-senders.js';
import { inProcess, startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { buySmsNumber, eventually } from './support/telephony.js';

let platform: TestPlatform;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startTestPlatform({ VOICE_SMTP_URL: smtp.url, VOICE_NUMBER_MONTHLY_CREDITS: '0' });
});
afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

test('an ended call’s event delivered again sends no second summary', async () => {
  const { id: workspaceId, key } = await platform.workspace({ plan: 'pro' });
  await platform.fund(workspaceId, '10.0000');
  const sender = await verifiedSender(platform, smtp, key);
  const recipients = [uniqueEmail('owner'), uniqueEmail('manager')];
  const assistant = await platform.api.post('/assistants', key, { name: 'Bookings', analysis_plan: { summary_email: { sender_id: sender.id, recipients } } });
  expect(assistant.status).toBe(201);
  const number = await buySmsNumber(platform.api, key, { enable: false });
  const script = [{ analysis: { summary: 'Booked for Friday.' } }, { hangup: 'caller' }];
  const placed = await platform.api.post('/calls', key, { assistant_id: assistant.body.data.id, from: number.number, to: '+14155550123', metadata: { sandbox_script: script } });
  expect(placed.status).toBe(201);
  const callId = placed.body.data.id as string;
  for (const recipient of recipients) await smtp.messageTo(recipient, 30_000);
  const first = await eventually(async () => {
    const items = (await platform.api.get('/history?channel=email', key)).body.data as { id: string; status: string }[];
    return items.length === 2 && items.every((item) => item.status === 'sent') ? items : undefined;
  }, 15_000, 'both summaries sent');

  // The same call ended again, twice, as new deliveries.
  const copy = create(CallChangedSchema, { eventId: newId(), workspaceId, call: { id: callId } });
  for (let i = 0; i < 2; i += 1) await inProcess(platform).events.publish(callEndedSubject, toBinary(CallChangedSchema, { ...copy, eventId: newId() }), newId());
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  for (const recipient of recipients) expect(smtp.received.filter((mail) => mail.envelopeTo.includes(recipient))).toHaveLength(1);
  const after = (await platform.api.get('/history?channel=email', key)).body.data as { id: string; status: string }[];
  expect(after.map((item) => item.id).sort()).toEqual(first.map((item) => item.id).sort());
});
