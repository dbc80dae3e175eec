// E-mail senders end to end, with a real SMTP server on loopback: a new sender is pending until the
// link e-mailed to it is confirmed (its page shows the address and changes nothing; the form
// confirms); a link works once, a tampered one never, an expired one (signed right, past its time)
// is 410 and leaves the sender pending; concurrent confirmations verify once; bad bodies, a second
// sender of one address, another workspace's sender and missing scopes change nothing.
import { createHmac } from 'node:crypto';
import { expectError } from './support/api-client.js';
import { startTestPlatform, uniqueEmail, type TestPlatform } from './support/platform.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { addSender as addSenderThrough, openConfirmation, type SenderView } from './support/email-senders.js';

let platform: TestPlatform;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startTestPlatform({ VOICE_SMTP_URL: smtp.url, VOICE_MAIL_FROM: 'no-reply@voice.example.net' });
});
afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

const settings = () => platform.workspace({ scopes: ['settings:read', 'settings:write'] });

type Sender = SenderView;

const addSender = (key: string, address?: string) => addSenderThrough(platform, smtp, key, address);
const open = (link: URL | string, method: 'GET' | 'POST' = 'GET') => openConfirmation(platform, link, method);

const statusOf = async (key: string, id: string) =>
  ((await platform.api.get('/email-senders?limit=100', key)).body.data as Sender[]).find((sender) => sender.id === id)?.status;

/** The link's token re-signed (as the platform signs it, with a key derived from the internal secret) with another expiry. */
function resigned(link: URL, expires: number): string {
  const token = link.pathname.split('/').pop()!;
  const [senderId, , nonce] = Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8').split('.');
  const key = createHmac('sha256', Buffer.from(platform.env.VOICE_INTERNAL_SECRET!, 'hex')).update('voice-email-senders:confirmation-link').digest();
  const payload = Buffer.from(`${senderId}.${expires}.${nonce}`).toString('base64url');
  return `/email-senders/confirm/${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

test('a sender is pending until its e-mailed link is confirmed; the link works once', async () => {
  const { key } = await settings();
  const address = uniqueEmail('Desk');
  const { sender, link } = await addSender(key, address);
  expect(sender).toMatchObject({ address: address.toLowerCase(), name: 'Front desk', status: 'pending', verified_at: null });
  // The platform's own address sends the link: the sender is not verified yet.
  expect((await smtp.messageTo(address.toLowerCase())).envelopeFrom).toBe('no-reply@voice.example.net');

  const page = await open(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(address.toLowerCase());
  // Fetching the page (as a mail scanner does) confirms nothing.
  expect(await statusOf(key, sender.id)).toBe('pending');

  const confirmed = await open(link, 'POST');
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toContain('Address confirmed');
  const listed = (await platform.api.get('/email-senders', key)).body.data as Sender[];
  expect(listed).toEqual([expect.objectContaining({ id: sender.id, status: 'verified', verified_at: expect.any(String) })]);

  expect((await open(link, 'POST')).status).toBe(404);
  expect((await open(link)).status).toBe(404);
  expect(await statusOf(key, sender.id)).toBe('verified');
});

test('a tampered link is 404; an expired one is 410; neither verifies', async () => {
  const { key } = await settings();
  const { sender, link } = await addSender(key);
  const token = link.pathname.split('/').pop()!;
  const [payload, signature] = token.split('.') as [string, string];
  const flipped = (text: string) => text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);
  for (const tampered of [`${payload}.${flipped(signature)}`, `${flipped(payload)}.${signature}`, `${payload}.`, 'not-a-token-at-all-xxxxxxxxxx']) {
    expect((await open(`/email-senders/confirm/${tampered}`, 'POST')).status).toBe(404);
    expect((await open(`/email-senders/confirm/${tampered}`)).status).toBe(404);
  }
  const expired = resigned(link, Math.floor(Date.now() / 1000) - 60);
  expect((await open(expired)).status).toBe(410);
  const refused = await open(expired, 'POST');
  expect(refused.status).toBe(410);
  expect(await refused.text()).toContain('expired');
  expect(await statusOf(key, sender.id)).toBe('pending');
  // The same token with a future expiry confirms: the 410 was the expiry's.
  expect((await open(resigned(link, Math.floor(Date.now() / 1000) + 600), 'POST')).status).toBe(200);
  expect(await statusOf(key, sender.id)).toBe('verified');
});

test('concurrent confirmations of one link verify once', async () => {
  const { key } = await settings();
  const { sender, link } = await addSender(key);
  const statuses = await Promise.all(Array.from({ length: 6 }, () => open(link, 'POST').then((response) => response.status)));
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  expect(statuses.filter((status) => status === 404)).toHaveLength(5);
  expect(await statusOf(key, sender.id)).toBe('verified');
});

test('bad bodies and a second sender of an address are refused and change nothing', async () => {
  const { key } = await settings();
  for (const body of [{}, { address: 'not-an-address' }, { address: uniqueEmail('x'), extra: true }, { address: uniqueEmail('x'), name: 'a'.repeat(101) }, { address: uniqueEmail('x'), name: 'two\nlines' }]) {
    expectError(await platform.api.post('/email-senders', key, body), 400, 'invalid_request');
  }
  const { sender } = await addSender(key);
  expectError(await platform.api.post('/email-senders', key, { address: sender.address.toUpperCase() }), 409, 'conflict');
  const listed = await platform.api.get('/email-senders', key);
  expect(listed.body.data).toHaveLength(1);
  expect(listed.body.meta.pagination.total).toBe(1);
});

test('a deleted sender’s link stops working; another workspace’s sender is 404; scopes are needed', async () => {
  const { key, id: workspaceId } = await settings();
  const other = await settings();
  const { sender, link } = await addSender(key);
  expectError(await platform.api.delete(`/email-senders/${sender.id}`, other.key), 404, 'not_found');
  expectError(await platform.api.delete('/email-senders/not-a-uuid', key), 404, 'not_found');
  expect((await platform.api.get('/email-senders', other.key)).body.data).toEqual([]);

  const reader = await platform.key(workspaceId, ['settings:read']);
  expectError(await platform.api.post('/email-senders', reader, { address: uniqueEmail('r') }), 403, 'forbidden');
  expectError(await platform.api.delete(`/email-senders/${sender.id}`, reader), 403, 'forbidden');
  const { key: callsOnly } = await platform.workspace({ scopes: ['calls:read'] });
  expectError(await platform.api.get('/email-senders', callsOnly), 403, 'forbidden');

  const deleted = await platform.api.delete(`/email-senders/${sender.id}`, key);
  expect(deleted.status).toBe(200);
  expect(deleted.body.data).toEqual({ id: sender.id, deleted: true });
  expectError(await platform.api.delete(`/email-senders/${sender.id}`, key), 404, 'not_found');
  expect((await open(link, 'POST')).status).toBe(404);
});

test('concurrent adds of one address: one sender, one confirmation e-mail', async () => {
  const { key } = await settings();
  const address = uniqueEmail('race');
  const statuses = await Promise.all(Array.from({ length: 5 }, () => platform.api.post('/email-senders', key, { address }).then((response) => response.status)));
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(4);
  expect((await platform.api.get('/email-senders', key)).body.data).toHaveLength(1);
  await smtp.messageTo(address);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(smtp.received.filter((mail) => mail.envelopeTo.includes(address))).toHaveLength(1);
});
