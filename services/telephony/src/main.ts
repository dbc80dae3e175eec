// Starts the telephony service: config, store, carriers, the outbox relay (usage and call-leg events), billing's holds,
// the periodic jobs (the recovery of interrupted sends, numbers' monthly fees, the pruning of old records), the Connect server;
// stops cleanly on SIGTERM.
import { createClient } from '@connectrpc/connect';
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { deriveKey, SecretBox } from '@voice/runtime/crypto';
import { callLegStream, OutboxRelay, openConfiguredEventStream, telephonyEventStream, usageStream, type EventStream } from '@voice/runtime/events';
import { callerIdCodeBuckets, openWindowCounter } from '@voice/runtime/counters';
import { egressPolicy } from '@voice/runtime/egress';
import { AssistantDirectory, openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { ConnectCallsPeer } from './call-legs/calls-peer.js';
import { recordLegProgress } from './call-legs/leg-events.js';
import { readTelephonyConfig } from './config.js';
import { CarrierDirectory } from './carriers/directory.js';
import { carrierFor, CircuitBreakers } from './carriers/registry.js';
import { ConnectBillingHolds } from './billing/holds.js';
import { NumberRenewals } from './numbers/renewals.js';
import { telephonyRetentionJob } from './retention.js';
import { telephonyRoutes, telephonyServiceNames } from './routes.js';
import { recordDelivery } from './sms/delivery-reports.js';
import { SipOptionsChecker } from './sip/options-check.js';
import { VerificationCodes } from './caller-ids/verification-code.js';
import { CodeSendLimits } from './caller-ids/code-send-limits.js';
import { SendRecovery } from './sms/send-recovery.js';
import { openSqliteTelephonyStore } from './store/sqlite.js';
import type { TelephonyStore } from './store/store.js';

export interface TelephonyOptions {
  logger?: Logger;
  /** The event stream to share (single-process platform); otherwise one is opened from NATS_URL and closed with the service. */
  events?: EventStream;
  /** The process's in-process services (single-process mode): billing is called there, and telephony's handlers are callable there too. */
  local?: InProcessServices;
  /** The time numbers are bought and renewed at; the system clock by default (tests move it). */
  clock?: () => Date;
}

export async function startTelephonyService(env: Env, options: TelephonyOptions = {}): Promise<StartedService> {
  const config = readTelephonyConfig(env);
  const logger = options.logger ?? createLogger({ service: 'telephony', level: config.common.logLevel });
  const signer = new CallerSigner(config.common.internalSecret);
  const store = await openServiceStore<TelephonyStore>(config.common, {
    service: 'telephony',
    sqlite: (file) => openSqliteTelephonyStore(file),
    mongo: async (uri, database) => (await import('./store/mongo.js')).connectMongoTelephonyStore(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    const events = options.events ?? (await openConfiguredEventStream(config.common, 'telephony', logger));
    if (!options.events) onClose(() => events.close());
    await events.ensureStream(usageStream.name, usageStream.subjects);
    await events.ensureStream(callLegStream.name, callLegStream.subjects);
    await events.ensureStream(telephonyEventStream.name, telephonyEventStream.subjects);

    const relay = new OutboxRelay({ outbox: store.outbox, stream: events, logger: logger.child({ component: 'outbox-relay' }) });
    relay.start();
    onClose(async () => {
      await relay.stop();
    });

    const box = new SecretBox(config.encryptionKey);
    const breakers = new CircuitBreakers();
    const carriers = new CarrierDirectory({
      platform: config.platformCarrier,
      box,
      publicUrl: config.publicUrl,
      build: (account, connectionId) =>
        carrierFor(account, {
          allowPrivate: config.egressAllowPrivate,
          logger: logger.child({ component: 'carrier' }),
          breakers,
          http: { timeoutMs: config.carrierTimeoutMs },
          mediaUrl: config.mediaUrl,
          onCallProgress: async (legId, change) => {
            await recordLegProgress({ store, wakeRelay: () => relay.wake() }, legId, change);
          },
          onDelivery: (carrierMessageId, report) => {
            recordDelivery({ store, wakeRelay: () => relay.wake() }, { carrierConnectionId: connectionId, carrierMessageId, update: { ...report, at: new Date().toISOString() } }).catch(
              (error: unknown) => logger.error('delivery report not recorded', { error }),
            );
          },
        }),
    });

    onClose(() => carriers.close());

    const billingChannel = openInternalChannel({ name: 'billing', url: config.billingUrl }, options.local);
    onClose(() => billingChannel.close());
    const billing = createClient(BillingService, billingChannel.transport);
    const holds = new ConnectBillingHolds(billing, signer, logger);
    const assistantsChannel = openInternalChannel({ name: 'assistants', url: config.assistantsUrl }, options.local);
    onClose(() => assistantsChannel.close());
    // Inbound calls are offered to the calls service, and carriers' recordings handed to it.
    const callsChannel = openInternalChannel({ name: 'calls', url: config.callsUrl }, options.local);
    onClose(() => callsChannel.close());
    const now = options.clock ?? (() => new Date());
    const codeCounter = (bucket: (typeof callerIdCodeBuckets)[keyof typeof callerIdCodeBuckets], windowSeconds: number) =>
      openWindowCounter(config.common, bucket, windowSeconds * 1000, (error) => logger.warn('caller ID code counter unavailable; counting in this replica', { bucket, error }));
    const { perNumber, perWorkspace } = config.codeSendLimits;
    const codeSendLimits = new CodeSendLimits({
      perNumber: { limit: perNumber, counter: await codeCounter(callerIdCodeBuckets.number, perNumber.windowSeconds) },
      perWorkspace: { limit: perWorkspace, counter: await codeCounter(callerIdCodeBuckets.workspace, perWorkspace.windowSeconds) },
    });
    onClose(() => codeSendLimits.close());
    const numberTerms = { monthlyUnits: config.pricing.numberMonthlyUnits, graceMs: config.numberGraceMs };

    const recovery = new SendRecovery({
      store,
      carriers,
      wakeRelay: () => relay.wake(),
      logger: logger.child({ component: 'send-recovery' }),
      afterMs: config.sendRecoveryAfterMs,
    });

    const renewals = new NumberRenewals({
      store,
      holds,
      carriers,
      terms: numberTerms,
      checkMs: config.numberRenewalCheckMs,
      wakeRelay: () => relay.wake(),
      logger: logger.child({ component: 'number-renewals' }),
    });
    const jobs = await startPeriodicJobs(config.common, 'telephony', { logger, clock: now }, [recovery.job(), renewals.job(), telephonyRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());

    return startConnectServer({
      ...serviceServerOptions('telephony', config, { logger: logger, local: options.local, signer }),
      serviceNames: telephonyServiceNames,
      routes: telephonyRoutes({
        store,
        box,
        carriers,
        // A key of its own for codes, so the hashes reveal nothing about the encryption key.
        verificationCodes: new VerificationCodes(deriveKey(config.encryptionKey, 'voice caller ID verification codes')),
        codeSendLimits,
        callerIdSmsFrom: config.callerIdSmsFrom,
        callerIdCallFrom: config.callerIdCallFrom,
        sipChecker: new SipOptionsChecker({
          policy: egressPolicy({ allowPrivate: config.egressAllowPrivate }),
          timeoutMs: config.sipCheckTimeoutMs,
          logger: logger.child({ component: 'sip-check' }),
        }),
        pricing: config.pricing,
        holds,
        assistants: new AssistantDirectory(assistantsChannel.transport, signer, 'telephony'),
        numberTerms,
        smsHoldSeconds: config.smsHoldSeconds,
        mediaUrl: config.mediaUrl,
        calls: new ConnectCallsPeer(callsChannel.transport, signer),
        wakeRelay: () => relay.wake(),
        now,
        logger,
      }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('telephony', startTelephonyService);
