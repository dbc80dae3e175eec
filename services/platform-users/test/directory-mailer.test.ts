// DirectoryMailer: each message is a private, parseable .eml file in a private directory.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { DirectoryMailer } from '../src/mail/directory-mailer.js';

const message = {
  to: 'ada@example.com',
  from: 'no-reply@voice.example.net',
  subject: "You're invited to Acme & Co",
  text: 'Hello Ada,\r\n\r\nhttps://voice.example.net/invitations/abc\r\n',
  html: '<p>Hello Ada,</p>',
};

describe('DirectoryMailer', () => {
  const root = mkdtempSync(join(tmpdir(), 'platform-users-mail-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('writes each message as an RFC 5322 file readable only by the service', async () => {
    const directory = join(root, 'data', 'mail-outbox');
    const mailer = await DirectoryMailer.open(directory);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(readdirSync(directory)).toEqual([]);
    const path = await mailer.write(message);
    await mailer.send({ ...message, to: 'grace@example.com' });
    mailer.close();

    expect(statSync(directory).mode & 0o777).toBe(0o700);
    const files = readdirSync(directory);
    expect(files).toHaveLength(2);
    expect(files.every((name) => name.endsWith('.eml'))).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const raw = readFileSync(path);
    expect(raw.toString('latin1')).toMatch(/\r\n\r\n/);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.from?.address).toBe(message.from);
    expect(parsed.to?.map((address) => address.address)).toEqual([message.to]);
    expect(parsed.text?.trim()).toBe(message.text.replace(/\r\n/g, '\n').trim());
    expect(parsed.html).toContain('<p>Hello Ada,</p>');
  });

  test('prune deletes the messages written before the cut-off, the oldest first and at most the batch, and nothing else', async () => {
    const directory = join(root, 'prune', 'mail-outbox');
    const mailer = await DirectoryMailer.open(directory);
    const [oldest, old, recent] = [await mailer.write(message), await mailer.write(message), await mailer.write(message)];
    mailer.close();
    utimesSync(oldest, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    utimesSync(old, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    const stranger = join(directory, 'notes.txt');
    writeFileSync(stranger, 'not a message');
    utimesSync(stranger, new Date('2025-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'));

    expect(await mailer.prune('2026-02-01T00:00:00.000Z', 1)).toBe(1);
    expect(readdirSync(directory).sort()).toEqual([old, recent, stranger].map((path) => path.slice(directory.length + 1)).sort());
    expect(await mailer.prune('2026-02-01T00:00:00.000Z', 10)).toBe(1);
    expect(await mailer.prune('2026-02-01T00:00:00.000Z', 10)).toBe(0);
    expect(readdirSync(directory).sort()).toEqual([recent, stranger].map((path) => path.slice(directory.length + 1)).sort());
  });
});
