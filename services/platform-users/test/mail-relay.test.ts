// MailRelay over a real SQLite outbox and a real SMTP server on loopback: retries while the
// server is down, delivers exactly once when it comes up, wipes what it sent, gives up after its
// window, and survives an outbox whose reads fail (a real SQLite error, not a stand-in store).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import PostalMime from 'postal-mime';
import { SecretBox } from '@voice/runtime/crypto';
import { newId } from '@voice/runtime/ids';
import { createLogger, type LogFields } from '@voice/runtime/logger';
import { mailRetryDelayMs, MailRelay, type MailRelayOptions } from '../src/mail/relay.js';
import { SmtpMailer } from '../src/mail/smtp-mailer.js';
import { openSqlitePlatformUsersStore } from '../src/store/sqlite.js';
import type { PlatformUsersStore } from '../src/store/store.js';
import { invitationRecord } from './store.contract.js';
import { freePort, startSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { waitFor } from './wait.js';

const box = new SecretBox(randomBytes(32));
const from = 'no-reply@voice.example.net';
const quick = { connectionMs: 500, greetingMs: 500, socketMs: 1_000 };

function capturingLogger() {
  const lines: (LogFields & { level: string; msg: string })[] = [];
  const logger = createLogger({ service: 'relay-test', level: 'debug', write: (line) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('MailRelay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-users-relay-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let store: PlatformUsersStore;
  let smtp: TestSmtpServer | undefined;
  let relay: MailRelay | undefined;
  let mailer: SmtpMailer | undefined;

  let file: string;

  beforeEach(() => {
    file = join(dir, `${newId()}.sqlite`);
    store = openSqlitePlatformUsersStore(file);
  });
  afterEach(async () => {
    await relay?.stop();
    mailer?.close();
    await smtp?.close();
    await store.close();
    relay = undefined;
    mailer = undefined;
    smtp = undefined;
  });

  async function queue(createdAt = new Date()): Promise<string> {
    const id = newId();
    await store.insertInvitationWithMail(invitationRecord(), {
      id,
      to: 'ada@example.com',
      subject: "You're invited to Acme",
      sealedText: box.seal('Hello Ada, https://voice.example.net/invitations/secret-token'),
      sealedHtml: box.seal('<p>Hello Ada</p>'),
      createdAt: createdAt.toISOString(),
    });
    return id;
  }

  const startRelay = (port: number, options: Partial<MailRelayOptions> = {}) => {
    mailer = new SmtpMailer({ host: '127.0.0.1', port, secure: false, auth: undefined }, quick);
    relay = new MailRelay({
      store,
      mailer,
      box,
      from,
      logger: createLogger({ service: 'relay-test', level: 'silent' }),
      pollIntervalMs: 20,
      backoff: { initialMs: 50, maxMs: 200 },
      ...options,
    });
    relay.start();
    return relay;
  };

  test('keeps the mail while the server is down, then delivers it once when it comes up', async () => {
    const port = await freePort();
    const id = await queue();
    startRelay(port);
    await waitFor(async () => ((await store.getMail(id))?.attempts ?? 0) >= 3, 5_000, 'three failed attempts');
    const pending = await store.getMail(id);
    expect(pending).toMatchObject({ sentAt: null });
    expect(pending?.sealedText).not.toBeNull();
    expect(pending?.lastError).toBeTruthy();

    smtp = await startSmtpServer({ port });
    await waitFor(async () => (await store.getMail(id))?.sentAt != null, 5_000, 'the delivery');
    // Several more polls: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.from).toBe(from);
    expect(smtp.received[0]!.to).toEqual(['ada@example.com']);
    const parsed = await PostalMime.parse(smtp.received[0]!.raw);
    expect(parsed.subject).toBe("You're invited to Acme");
    expect(parsed.text).toContain('secret-token');

    const sent = await store.getMail(id);
    expect(sent).toMatchObject({ sealedText: null, sealedHtml: null, nextAttemptAt: null });
  });

  test('a wake sends new mail at once instead of at the next poll', async () => {
    smtp = await startSmtpServer();
    startRelay(smtp.port, { pollIntervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const id = await queue();
    relay!.wake();
    await waitFor(async () => (await store.getMail(id))?.sentAt != null, 2_000, 'the delivery');
    expect(smtp.received).toHaveLength(1);
  });

  test('gives a message up with an error log once its window has passed', async () => {
    const { logger, lines } = capturingLogger();
    const id = await queue(new Date(Date.now() - 25 * 60 * 60_000));
    startRelay(await freePort(), { logger });
    await waitFor(async () => ((await store.getMail(id))?.attempts ?? 0) === 1, 5_000, 'the one attempt');
    expect(await store.getMail(id)).toMatchObject({ nextAttemptAt: null, sentAt: null, sealedText: null, sealedHtml: null });
    expect(lines.some((line) => line.level === 'error' && line.msg.includes('giving up') && line.mail_id === id)).toBe(true);
  });

  test('an outbox that fails to answer costs a retry, never the process', async () => {
    smtp = await startSmtpServer();
    const id = await queue();
    const { logger, lines } = capturingLogger();
    // Another connection to the same SQLite file takes the outbox table away, so every read of
    // the relay's store fails (no such table) until it is put back.
    const other = new Database(file);
    try {
      other.exec('ALTER TABLE mail_outbox RENAME TO mail_outbox_away');
      await expect(store.dueMail(new Date().toISOString(), 10)).rejects.toMatchObject({ code: 'SQLITE_ERROR', message: 'no such table: mail_outbox' });
      startRelay(smtp.port, { logger });
      const readFailures = () => lines.filter((line) => line.level === 'warn' && line.msg.includes('could not read the outbox'));
      await waitFor(() => readFailures().length >= 2, 5_000, 'two failed reads of the outbox');
      expect(smtp.received).toHaveLength(0);
      other.exec('ALTER TABLE mail_outbox_away RENAME TO mail_outbox');
    } finally {
      other.close();
    }
    await waitFor(async () => (await store.getMail(id))?.sentAt != null, 5_000, 'the delivery');
    expect(smtp.received).toHaveLength(1);
  });

  test('the retry delay doubles from one second up to five minutes', () => {
    const backoff = { initialMs: 1_000, maxMs: 300_000 };
    expect([1, 2, 3, 4, 9, 10, 50].map((attempts) => mailRetryDelayMs(attempts, backoff))).toEqual([
      1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000,
    ]);
  });
});
