// SmtpMailer against a real SMTP server on loopback: with and without a login, refused, down,
// and hanging before its greeting.
import PostalMime from 'postal-mime';
import { SmtpMailer, type SmtpSettings } from '../src/mail/smtp-mailer.js';
import { freePort, startSilentServer, startSmtpServer, type TestSmtpServer } from './smtp-server.js';

const message = {
  to: 'ada@example.com',
  from: 'no-reply@voice.example.net',
  subject: "You're invited to Acme",
  text: 'Hello Ada,\r\n\r\nhttps://voice.example.net/invitations/abc\r\n',
  html: '<p>Hello Ada,</p><p><a href="https://voice.example.net/invitations/abc">accept</a></p>',
};

const settings = (port: number, auth?: SmtpSettings['auth']): SmtpSettings => ({ host: '127.0.0.1', port, secure: false, auth });
const quick = { connectionMs: 1_000, greetingMs: 1_000, socketMs: 2_000 };

describe('SmtpMailer', () => {
  let server: TestSmtpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('delivers the message with its envelope, subject and both parts', async () => {
    server = await startSmtpServer();
    const mailer = new SmtpMailer(settings(server.port), quick);
    await mailer.send(message);
    mailer.close();
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail!.from).toBe(message.from);
    expect(mail!.to).toEqual([message.to]);
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.from?.address).toBe(message.from);
    expect(parsed.to?.map((address) => address.address)).toEqual([message.to]);
    expect(parsed.text?.replace(/\r\n/g, '\n').trim()).toBe(message.text.replace(/\r\n/g, '\n').trim());
    expect(parsed.html).toContain('href="https://voice.example.net/invitations/abc"');
  });

  test('logs in when the settings carry credentials', async () => {
    const auth = { user: 'relay@example.com', pass: 'p@ss:w/rd' };
    server = await startSmtpServer({ auth });
    const mailer = new SmtpMailer(settings(server.port, auth), quick);
    await mailer.send(message);
    mailer.close();
    expect(server.received.map((mail) => mail.user)).toEqual([auth.user]);
  });

  test('rejects when the login is wrong', async () => {
    server = await startSmtpServer({ auth: { user: 'relay', pass: 'right' } });
    const mailer = new SmtpMailer(settings(server.port, { user: 'relay', pass: 'wrong' }), quick);
    await expect(mailer.send(message)).rejects.toThrow(/535|Invalid/);
    mailer.close();
    expect(server.received).toHaveLength(0);
  });

  test('rejects when the server refuses the message', async () => {
    server = await startSmtpServer({ refuseRecipients: true });
    const mailer = new SmtpMailer(settings(server.port), quick);
    await expect(mailer.send(message)).rejects.toThrow(/550|Mailbox unavailable/);
    mailer.close();
    expect(server.received).toHaveLength(0);
  });

  test('rejects at once when nothing listens', async () => {
    const mailer = new SmtpMailer(settings(await freePort()), quick);
    const started = Date.now();
    await expect(mailer.send(message)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(quick.connectionMs + 500);
    mailer.close();
  });

  test('rejects within the greeting timeout when the server never answers', async () => {
    const silent = await startSilentServer();
    const mailer = new SmtpMailer(settings(silent.port), { connectionMs: 500, greetingMs: 500, socketMs: 1_000 });
    const started = Date.now();
    try {
      await expect(mailer.send(message)).rejects.toThrow(/greeting|timeout/i);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      mailer.close();
      await silent.close();
    }
  });
});
