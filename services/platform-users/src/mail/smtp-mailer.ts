// Sends mail through an SMTP server with nodemailer: one connection per message, short timeouts
// so an unreachable server fails a relay attempt quickly, and never a log of the traffic (it
// would carry the credentials and the invitation links).
import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.js';

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS (smtps://); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
}

export interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}

export const defaultSmtpTimeouts: SmtpTimeouts = { connectionMs: 5_000, greetingMs: 5_000, socketMs: 10_000 };

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(settings: SmtpSettings, timeouts: SmtpTimeouts = defaultSmtpTimeouts) {
    this.transport = createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.auth,
      connectionTimeout: timeouts.connectionMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
      logger: false,
      debug: false,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // The bodies are ours, but nothing in a message may make nodemailer read files or URLs.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  close(): void {
    this.transport.close();
  }
}
