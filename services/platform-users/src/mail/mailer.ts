// The port the mail relay sends through: SMTP in production, a directory of .eml files in the
// embedded mode.

export interface MailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the message is handed over; rejects when it was not. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}
