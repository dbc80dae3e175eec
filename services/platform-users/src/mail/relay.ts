// Sends the mail outbox: runs, waits, wakes, backs off and stops as every relay does (BatchRelay);
// a batch leases each due message, opens its sealed bodies, sends it and marks it sent. A failed
// message waits exponentially longer (1 s doubling, at most 5 min) and is given up, with an error
// log, once it has waited a day. Nothing here ever throws out of the loop: a broken store or
// mailer costs a retry, never the process.
import type { SecretBox } from '@voice/runtime/crypto';
import { redeliveryDelayMs, type RedeliveryBackoff } from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import { BatchRelay } from '@voice/runtime/batch-relay';
import type { MailOutboxStore, MailRecord } from '../store/store.js';
import type { Mailer } from './mailer.js';

/** The events' redelivery back-off: the same doubling, capped. */
export type MailBackoff = RedeliveryBackoff;

export interface MailRelayOptions {
  store: MailOutboxStore;
  mailer: Mailer;
  box: SecretBox;
  /** The From address of every message that names none of its own (a workspace sender's). */
  from: string;
  logger: Logger;
  /** Pause between polls when nothing wakes the relay; after a failed poll the pause doubles from it. */
  pollIntervalMs?: number;
  batchSize?: number;
  backoff?: MailBackoff;
  /** A message still failing this long after it was written is given up. */
  giveUpAfterMs?: number;
  /** How long one sending attempt holds a message; longer than a send can take. */
  leaseMs?: number;
  now?: () => Date;
}

export const defaultMailBackoff: MailBackoff = { initialMs: 1_000, maxMs: 5 * 60_000 };
const day = 24 * 60 * 60_000;

/** The pause after the given number of failed attempts (1 for the first). */
export const mailRetryDelayMs: (attempts: number, backoff: MailBackoff) => number = redeliveryDelayMs;

export class MailRelay {
  private readonly backoff: MailBackoff;
  private readonly giveUpAfterMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private readonly relay: BatchRelay;

  constructor(private readonly options: MailRelayOptions) {
    const pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.backoff = options.backoff ?? defaultMailBackoff;
    this.giveUpAfterMs = options.giveUpAfterMs ?? day;
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    this.now = options.now ?? (() => new Date());
    this.relay = new BatchRelay({
      batch: (size) => this.sendBatch(size),
      logger: options.logger,
      failureMessage: 'mail relay could not read the outbox; retrying',
      intervalMs: pollIntervalMs,
      batchSize: options.batchSize ?? 20,
      retryBackoff: { initialMs: pollIntervalMs, maxMs: Math.max(pollIntervalMs, 30_000) },
    });
  }

  start(): void {
    this.relay.start();
  }

  /** Asks for a run now (call it after storing mail). */
  wake(): void {
    this.relay.wake();
  }

  /** Stops scheduling runs; resolves once the message being sent is settled, or let go after `shutdownWaitMs` (its lease ends and it is sent again). */
  async stop(): Promise<void> {
    await this.relay.stop();
  }

  /** Sends every message due now, batch by batch; resolves with how many went out. */
  runOnce(): Promise<number> {
    return this.relay.runOnce();
  }

  private async sendBatch(size: number): Promise<{ found: number; delivered: number }> {
    const due = await this.options.store.dueMail(this.now().toISOString(), size);
    let sent = 0;
    for (const mail of due) {
      if (this.relay.stopped) break;
      if (await this.attempt(mail)) sent += 1;
    }
    return { found: due.length, delivered: sent };
  }

  /** One sending attempt of one message; true when it was sent. */
  private async attempt(mail: MailRecord): Promise<boolean> {
    const { store } = this.options;
    const started = this.now();
    if (!mail.nextAttemptAt || !(await store.leaseMail(mail.id, mail.nextAttemptAt, new Date(started.getTime() + this.leaseMs).toISOString()))) {
      return false;
    }
    let text: string;
    let html: string;
    try {
      if (mail.sealedText === null || mail.sealedHtml === null) throw new Error('the message has no body');
      text = this.options.box.open(mail.sealedText);
      html = this.options.box.open(mail.sealedHtml);
    } catch (error) {
      // Another encryption key, or a damaged row: no retry can help.
      this.options.logger.error('mail could not be opened; giving it up', { error, mail_id: mail.id });
      await store.markMailFailed(mail.id, 'the sealed message could not be opened', null);
      return false;
    }
    try {
      await this.options.mailer.send({ to: mail.to, from: mail.from ?? this.options.from, subject: mail.subject, text, html });
    } catch (error) {
      await this.failed(mail, error);
      return false;
    }
    await store.markMailSent(mail.id, this.now().toISOString());
    this.options.logger.info('mail sent', { mail_id: mail.id, attempts: mail.attempts + 1 });
    return true;
  }

  private async failed(mail: MailRecord, error: unknown): Promise<void> {
    const attempts = mail.attempts + 1;
    const reason = error instanceof Error ? error.message : String(error);
    const now = this.now();
    if (now.getTime() - Date.parse(mail.createdAt) >= this.giveUpAfterMs) {
      this.options.logger.error('mail could not be delivered; giving up', { mail_id: mail.id, attempts, error: reason });
      await this.options.store.markMailFailed(mail.id, reason, null);
      return;
    }
    const delayMs = mailRetryDelayMs(attempts, this.backoff);
    this.options.logger.warn('mail could not be sent; retrying', { mail_id: mail.id, attempts, retry_in_ms: delayMs, error: reason });
    await this.options.store.markMailFailed(mail.id, reason, new Date(now.getTime() + delayMs).toISOString());
  }
}
