// The platform-users settings: mail and invitation variables, their defaults, and refusals that
// name the variable without repeating a secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPlatformUsersConfig } from '../src/config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'platform-users-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const read = (env: Record<string, string> = {}) => readPlatformUsersConfig({ DATA_DIR: dataDir, ...env });

test('defaults: directory mail, a week of invitation, no-reply at the platform host, local identity and billing', () => {
  const config = read({ VOICE_PUBLIC_URL: 'https://voice.example.net' });
  expect(config.smtp).toBeUndefined();
  expect(config.mailDirectory).toBe(join(dataDir, 'mail-outbox'));
  expect(config.invitationTtlHours).toBe(168);
  expect(config.mailFrom).toBe('no-reply@voice.example.net');
  expect(config.publicUrl).toBe('https://voice.example.net');
  expect(config.identityUrl).toBe('http://127.0.0.1:50051');
  expect(config.billingUrl).toBe('http://127.0.0.1:50054');
  expect(config.encryptionKey).toHaveLength(32);
});

test('a platform reached by IP address sends from an address literal, never no-reply@127.0.0.1', () => {
  expect(read({ VOICE_PUBLIC_URL: 'http://127.0.0.1:8080' }).mailFrom).toBe('no-reply@[127.0.0.1]');
  expect(read({ VOICE_PUBLIC_URL: 'http://[::1]:8080' }).mailFrom).toBe('no-reply@[IPv6:::1]');
  expect(read({ VOICE_PUBLIC_URL: 'https://Voice.Example.NET' }).mailFrom).toBe('no-reply@voice.example.net');
  expect(read({ VOICE_PUBLIC_URL: 'http://127.0.0.1:8080', VOICE_MAIL_FROM: 'hello@acme.example' }).mailFrom).toBe('hello@acme.example');
});

test('an SMTP URL with percent-encoded credentials', () => {
  expect(read({ VOICE_SMTP_URL: 'smtp://relay%40example.com:p%40ss%3Aw%2Frd@smtp.example.com:2525' }).smtp).toEqual({
    host: 'smtp.example.com',
    port: 2525,
    secure: false,
    auth: { user: 'relay@example.com', pass: 'p@ss:w/rd' },
  });
  expect(read({ VOICE_SMTP_URL: 'smtps://mail.example.com' }).smtp).toEqual({ host: 'mail.example.com', port: 465, secure: true, auth: undefined });
  expect(read({ VOICE_SMTP_URL: 'smtp://[::1]' }).smtp).toEqual({ host: '::1', port: 587, secure: false, auth: undefined });
});

test.each([
  ['https://user:secret-password@smtp.example.com', /VOICE_SMTP_URL must use smtp: or smtps:/],
  ['smtp://user:secret-password@smtp.example.com/path', /VOICE_SMTP_URL must be smtp:/],
  ['smtp://user:secret-password@smtp.example.com?tls=1', /VOICE_SMTP_URL must be smtp:/],
  ['smtp://:secret-password@smtp.example.com', /VOICE_SMTP_URL has a password without a user name/],
  ['not a url secret-password', /VOICE_SMTP_URL must be smtp:/],
])('VOICE_SMTP_URL %s is refused without repeating the password', (value, message) => {
  let error: unknown;
  try {
    read({ VOICE_SMTP_URL: value });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(message);
  expect((error as Error).message).not.toContain('secret-password');
});

test('VOICE_MAIL_FROM must be an address', () => {
  expect(read({ VOICE_MAIL_FROM: 'invites@acme.example' }).mailFrom).toBe('invites@acme.example');
  expect(() => read({ VOICE_MAIL_FROM: 'Acme' })).toThrow(/VOICE_MAIL_FROM must be an e-mail address/);
});

test('VOICE_INVITATION_TTL_HOURS is 1 to 720', () => {
  expect(read({ VOICE_INVITATION_TTL_HOURS: '1' }).invitationTtlHours).toBe(1);
  expect(read({ VOICE_INVITATION_TTL_HOURS: '720' }).invitationTtlHours).toBe(720);
  expect(() => read({ VOICE_INVITATION_TTL_HOURS: '0' })).toThrow(/VOICE_INVITATION_TTL_HOURS/);
  expect(() => read({ VOICE_INVITATION_TTL_HOURS: '721' })).toThrow(/VOICE_INVITATION_TTL_HOURS/);
  expect(() => read({ VOICE_INVITATION_TTL_HOURS: 'week' })).toThrow(/VOICE_INVITATION_TTL_HOURS/);
});

test('identity and billing addresses are validated', () => {
  expect(read({ VOICE_IDENTITY_URL: 'http://10.0.0.5:7000', VOICE_BILLING_URL: 'http://10.0.0.6:7001' })).toMatchObject({
    identityUrl: 'http://10.0.0.5:7000',
    billingUrl: 'http://10.0.0.6:7001',
  });
  expect(() => read({ VOICE_BILLING_URL: 'ftp://billing' })).toThrow(/VOICE_BILLING_URL/);
});
