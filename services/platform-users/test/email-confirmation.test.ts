// The e-mail sender confirmation token (signed, expiring, single-use by its nonce) and how a workspace
// e-mail's failure is told: the platform's own reason, never the SMTP server's words.
import { randomBytes } from 'node:crypto';
import { newId } from '@voice/runtime/ids';
import { ConfirmationTokens, confirmationHashOf } from '../src/email/confirmation-tokens.js';
import { presentWorkspaceEmail } from '../src/email/presenter.js';
import type { MailRecord } from '../src/store/store.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const tokens = new ConfirmationTokens(randomBytes(32));

test('a token reads back its sender until it expires; its nonce hash is what the sender keeps', () => {
  const senderId = newId();
  const issued = tokens.issue(senderId, 3600, now);
  expect(issued.expiresAt.toISOString()).toBe('2026-11-22T11:00:00.000Z');
  const reading = tokens.read(issued.token, new Date(now.getTime() + 3599_000));
  expect(reading).toEqual({ kind: 'valid', claim: { senderId, expires: Date.parse('2026-11-22T11:00:00.000Z') / 1000, nonce: expect.any(String) } });
  expect(reading.kind === 'valid' && confirmationHashOf(reading.claim)).toBe(issued.nonceHash);
  expect(tokens.read(issued.token, new Date(now.getTime() + 3600_000)).kind).toBe('expired');
  // Two links of one sender carry different nonces: the newer replaces the older.
  expect(tokens.issue(senderId, 3600, now).nonceHash).not.toBe(issued.nonceHash);
});

test('a token altered anywhere, signed under another secret or of another shape is invalid', () => {
  const { token } = tokens.issue(newId(), 3600, now);
  const [payload, signature] = token.split('.') as [string, string];
  const other = new ConfirmationTokens(randomBytes(32)).issue(newId(), 3600, now).token;
  const longer = Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/\.(\d+)\./, (_, expires: string) => `.${Number(expires) + 86_400}.`)).toString('base64url');
  // The last character changed for certain: one signature in 16 already ends in 'A'.
  const altered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'E' : 'A'}`;
  for (const bad of [`${payload}.${altered}`, `${longer}.${signature}`, other, `${payload}`, '', 'x'.repeat(300), `${payload}.${signature}.extra`]) {
    expect(tokens.read(bad, now)).toEqual({ kind: 'invalid' });
  }
});

const mail = (overrides: Partial<MailRecord>): MailRecord => ({
  id: newId(),
  to: 'owner@example.com',
  subject: 'Call summary',
  sealedText: null,
  sealedHtml: null,
  attempts: 0,
  nextAttemptAt: null,
  sentAt: null,
  lastError: null,
  createdAt: now.toISOString(),
  from: 'desk@example.com',
  workspace: { workspaceId: newId(), senderId: newId(), callId: null },
  ...overrides,
});

test('a delivery given up never repeats the SMTP server’s error; a refusal at queue time says its reason', () => {
  const givenUp = presentWorkspaceEmail(mail({ attempts: 7, lastError: 'connect ECONNREFUSED 10.1.2.3:25' }));
  expect(givenUp.status).toBe('failed');
  expect(givenUp.failureReason).not.toContain('10.1.2.3');
  expect(presentWorkspaceEmail(mail({ lastError: 'the sender is not verified' })).failureReason).toBe('the sender is not verified');
  const retrying = presentWorkspaceEmail(mail({ attempts: 2, lastError: 'greeting never received', nextAttemptAt: now.toISOString() }));
  expect(retrying).toMatchObject({ status: 'queued', failureReason: '' });
  expect(presentWorkspaceEmail(mail({ sentAt: now.toISOString() })).status).toBe('sent');
});
