// Starts the campaigns dialer: the store, the outbox relay (campaigns' completions, which only the
// dialer makes), the dial queue's and the callback queue's workers, the consumer of the calls' ends,
// the recovery and pruning jobs, the schedules' starts and the due-callbacks job (on leases) and a
// server answering only health checks; its own process in the
// distributed mode (src/dialer/main.ts), a part of the platform's process when embedded. Stops in reverse.
import { CallerSigner } from '@voice/runtime/caller';
import { readListenAddress, type Env } from '@voice/runtime/config';
import { campaignDialBucket, openWindowCounter } from '@voice/runtime/counters';
import { campaignStream, OutboxRelay, openConfiguredEventStream, type EventStream } from '@voice/runtime/events';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { readCampaignsConfig } from '../config.js';
import { campaignsRetentionJob } from '../retention.js';
import { ConnectCampaignCalls } from '../peers/campaign-calls.js';
import { ConnectCampaignPeers } from '../peers/peers.js';
import { SqliteCampaignStore } from '../store/sqlite.js';
import type { CampaignStore } from '../store/store.js';
import { consumeCallOutcomes } from './call-outcomes.js';
import { openCallSlots } from './call-slots.js';
import { openCallbackQueue } from './callback-job.js';
import { CallbackDialer } from './callback-dialer.js';
import { callbackScanJob } from './callback-scan-job.js';
import { openDialQueue } from './dial-job.js';
import { DialGate } from './dial-gate.js';
import { Dialer } from './dialer.js';
import { FromNumbers } from './from-numbers.js';
import { dialRecoveryJob } from './recovery-job.js';
import { campaignScheduleJob } from './schedule-job.js';

/** Jobs one dialer handles at once: each waits mostly on the calls service. */
const dialConcurrency = 4;

export interface CampaignDialerOptions {
  logger?: Logger;
  /** The time windows, retries and leads' changes are judged by; the system clock unless a test moves it. */
  clock?: () => Date;
  /** The process's in-process services (single-process mode). */
  local?: InProcessServices;
  /** The process's event stream in the single-process mode (left open on close); otherwise one is opened from NATS_URL. */
  events?: EventStream;
}

export async function startCampaignDialer(env: Env, options: CampaignDialerOptions = {}): Promise<StartedService> {
  const config = readCampaignsConfig(env);
  const logger = options.logger ?? createLogger({ service: 'campaigns-dialer', level: config.common.logLevel });
  const now = options.clock ?? (() => new Date());
  return startService(async (onClose) => {
    const store = await openServiceStore<CampaignStore>(config.common, {
      service: 'campaigns',
      sqlite: (file) => new SqliteCampaignStore(file),
      mongo: async (uri, database) => (await import('../store/mongo.js')).MongoCampaignStore.connect(uri, database),
    });
    onClose(() => store.close());
    let events = options.events;
    if (!events) {
      const own = await openConfiguredEventStream(config.common, 'campaigns-dialer', logger);
      onClose(() => own.close());
      events = own;
    }
    await events.ensureStream(campaignStream.name, campaignStream.subjects);
    const relay = new OutboxRelay({ outbox: store.outbox, stream: events, logger: logger.child({ component: 'campaigns-relay' }) });
    relay.start();
    onClose(async () => {
      await relay.stop();
    });
    const wakeRelay = () => relay.wake();
    const signer = new CallerSigner(config.common.internalSecret);
    const channel = (name: string, url: string) => {
      const opened = openInternalChannel({ name, url }, options.local);
      onClose(() => opened.close());
      return opened.transport;
    };
    const telephony = channel('telephony', config.telephonyUrl);
    const peers = new ConnectCampaignPeers({ assistants: channel('assistants', config.assistantsUrl), telephony }, signer);
    const calls = new ConnectCampaignCalls(channel('calls', config.callsUrl), signer);
    const queue = await openDialQueue(events, logger.child({ component: 'dial-queue' }));
    const callSlots = await openCallSlots(config.common, store);
    onClose(() => callSlots.close());
    const outcomes = await consumeCallOutcomes(events, { store, queue, callSlots, now, wakeRelay, logger: logger.child({ component: 'call-outcomes' }) });
    onClose(() => outcomes.stop());
    const dialRates = await openWindowCounter(config.common, campaignDialBucket, 60_000, (error) => logger.warn('dial rate counter unavailable; counting in this dialer', { error }));
    onClose(() => dialRates.close());
    // One gate for both dialers: the leads' and the callbacks' calls share the pacing and the from-numbers' cache.
    const gate = new DialGate({ peers, fromNumbers: new FromNumbers(peers), calls, dialRates, callSlots });
    const dialer = new Dialer({ store, gate, now, wakeRelay, logger: logger.child({ component: 'dialer' }) });
    const worker = await queue.work((job) => dialer.handle(job), { concurrency: dialConcurrency });
    onClose(() => worker.stop());
    const callbackQueue = await openCallbackQueue(events, logger.child({ component: 'callback-queue' }));
    const callbackDialer = new CallbackDialer({ store, gate, now, logger: logger.child({ component: 'callback-dialer' }) });
    const callbackWorker = await callbackQueue.work((job) => callbackDialer.handle(job), { concurrency: dialConcurrency });
    onClose(() => callbackWorker.stop());
    const jobs = await startPeriodicJobs(config.common, 'campaigns-dialer', { logger, clock: options.clock }, [
      dialRecoveryJob({ store, queue }),
      campaignScheduleJob({ store, dialQueue: queue, now, logger: logger.child({ component: 'schedules' }) }),
      callbackScanJob({ store, queue: callbackQueue }),
      campaignsRetentionJob(store, config.common.retention),
    ]);
    onClose(() => jobs.stop());
    return startConnectServer({
      ...serviceServerOptions('campaigns-dialer', { ...config, ...readListenAddress(env, 'campaigns-dialer') }, { logger, local: options.local, signer }),
      serviceNames: [],
      routes: () => {},
    });
  });
}
