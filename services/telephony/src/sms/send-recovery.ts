// Sends cut off between their start and the carrier's recorded answer (the process was killed, or
// the write after the answer failed) would keep their hold at billing and their Idempotency-Key
// until the hold expires, and a message the carrier took would never be billed. A periodic pass
// asks each one's carrier whether it took the message: if it did, the message is accepted and its
// hold captured exactly as the send would have done; if it did not, the send is abandoned like one
// the carrier refused (its hold released, the key free for a retry). A carrier that cannot be
// asked now is asked again on the next pass. The passes are a periodic job (telephony.send-recovery):
// one replica at a time runs them.
import type { PeriodicJob } from '@voice/runtime/jobs';
import type { Logger } from '@voice/runtime/logger';
import type { CarrierAdapter } from '../carriers/carrier.js';
import type { CarrierDirectory } from '../carriers/directory.js';
import { smsCaptureEvent, smsReleaseEvent } from '../billing/usage-events.js';
import { smsStatusChangedEvent } from './status-events.js';
import type { ConnectionStore, InterruptedSendStore, MessageRecord, SendStore } from '../store/store.js';

export interface SendRecoveryOptions {
  store: SendStore & InterruptedSendStore & ConnectionStore;
  carriers: CarrierDirectory;
  /** Asks the outbox relay to publish now (after a recovered message's usage event committed). */
  wakeRelay(): void;
  logger: Logger;
  /** Older sends cannot still be in flight (TelephonyConfig.sendRecoveryAfterMs). */
  afterMs: number;
}

export interface RecoveryPass {
  /** The carrier had taken them: now accepted, and billed. */
  accepted: number;
  /** The carrier had not: gone, their holds released. */
  abandoned: number;
  /** The carrier could not be asked: left for the next pass. */
  deferred: number;
  /** Settled meanwhile by another replica's pass. */
  settledElsewhere: number;
}

type Outcome = keyof RecoveryPass;

const batchSize = 100;
/** The longest pause between passes; shorter recovery ages are checked more often. */
const maxIntervalMs = 30_000;

export class SendRecovery {
  constructor(private readonly options: SendRecoveryOptions) {}

  job(): PeriodicJob {
    return {
      name: 'telephony.send-recovery',
      periodMs: Math.min(maxIntervalMs, Math.ceil(this.options.afterMs / 2)),
      batchSize,
      run: async ({ now, signal }) => {
        const pass = await this.runPass(now, signal);
        return pass.accepted + pass.abandoned + pass.settledElsewhere;
      },
    };
  }

  /** Settles every send that has been waiting longer than the recovery age, a batch at a time. */
  async runPass(now: Date, signal?: AbortSignal): Promise<RecoveryPass> {
    const pass: RecoveryPass = { accepted: 0, abandoned: 0, deferred: 0, settledElsewhere: 0 };
    const createdBefore = new Date(now.getTime() - this.options.afterMs).toISOString();
    const seen = new Set<string>();
    for (;;) {
      const batch = (await this.options.store.interruptedSends(createdBefore, batchSize + seen.size)).filter((message) => !seen.has(message.id));
      for (const message of batch) {
        if (signal?.aborted) return pass;
        seen.add(message.id);
        pass[await this.recover(message, now)]++;
      }
      if (batch.length === 0) return pass;
    }
  }

  private async recover(message: MessageRecord, now: Date): Promise<Outcome> {
    const log = { message_id: message.id, workspace_id: message.workspaceId };
    const adapter = await this.carrierOf(message.carrierConnectionId);
    let carrierMessageId: string | undefined;
    if (adapter) {
      try {
        const candidates = await adapter.findSentSms({ from: message.from, to: message.to, body: message.body, notBefore: message.createdAt });
        // A message the platform already recorded is another send of the same text, not this one.
        [carrierMessageId] = await this.options.store.unrecordedCarrierIds(message.carrierConnectionId, candidates);
      } catch (error) {
        this.options.logger.warn('the carrier could not be asked about an interrupted send; asking again later', { ...log, error });
        return 'deferred';
      }
    } else {
      this.options.logger.warn("an interrupted send's carrier connection is gone; nobody can be asked, so it is abandoned", log);
    }

    const at = now.toISOString();
    if (carrierMessageId === undefined) {
      if (!(await this.options.store.abandonSend(message.id, smsReleaseEvent(message, at)))) return 'settledElsewhere';
      this.options.wakeRelay();
      this.options.logger.warn('an interrupted send was not taken by the carrier; abandoned, its hold released', log);
      return 'abandoned';
    }
    const accepted = await this.options.store.acceptSend(message.id, carrierMessageId, smsCaptureEvent(message, at), at, smsStatusChangedEvent);
    if (!accepted) return 'settledElsewhere';
    this.options.wakeRelay();
    this.options.logger.warn('an interrupted send had been taken by the carrier; accepted and billed', log);
    return 'accepted';
  }

  /** The adapter of the platform's carrier (null) or of a connection; undefined when the connection was deleted. */
  private async carrierOf(connectionId: string | null): Promise<CarrierAdapter | undefined> {
    if (connectionId === null) return this.options.carriers.platform();
    const connection = await this.options.store.getConnectionById(connectionId);
    return connection && this.options.carriers.forConnection(connection);
  }
}
