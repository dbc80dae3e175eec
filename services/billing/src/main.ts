// Starts the billing service: config, store, the wallet-event relay, the usage consumer, the
// periodic jobs (the sweeper of expired holds, the pruning of old records) and the Connect server; stops them in reverse on
// close (SIGTERM when run on its own).
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { openConfiguredEventStream, type EventStream } from '@voice/runtime/events';
import type { InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { openServiceStore } from '@voice/runtime/store';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { monotonicClock } from '@voice/runtime/time';
import { settledWithin } from '@voice/runtime/shutdown';
import { readBillingConfig } from './config.js';
import { HoldSweeper } from './holds/hold-sweeper.js';
import { billingRetentionJob } from './retention.js';
import { IdentityIssuerLookup, type IssuerLookup } from './wallets/issuers.js';
import { billingRoutes, billingServiceNames } from './routes.js';
import { SqliteBillingStore } from './store/sqlite.js';
import type { BillingStore } from './store/store.js';
import { UsageConsumer } from './usage/usage-consumer.js';
import { startWalletEventRelay } from './wallets/wallet-events.js';
import { Wallets } from './wallets/wallets.js';

export interface BillingOptions {
  logger?: Logger;
  /** The process's event stream in the single-process mode (left open on close); otherwise one is opened from NATS_URL. */
  events?: EventStream;
  /** Which workspace issues credits; by default the identity service at VOICE_IDENTITY_URL is asked. */
  issuers?: IssuerLookup;
  /** The process's in-process services (single-process mode): identity is called there, and billing's handlers are callable there too. */
  local?: InProcessServices;
}

/** What startBillingService returns (the runtime's StartedService). */
export type StartedBilling = StartedService;

export async function startBillingService(env: Env, options: BillingOptions = {}): Promise<StartedBilling> {
  const config = readBillingConfig(env);
  const logger = options.logger ?? createLogger({ service: 'billing', level: config.common.logLevel });
  const signer = new CallerSigner(config.common.internalSecret);
  const now = monotonicClock();
  return startService(async (onClose) => {
    let issuers = options.issuers;
    if (!issuers) {
      const identity = new IdentityIssuerLookup(config.identityUrl, signer, options.local);
      onClose(() => identity.close());
      issuers = identity;
    }
    let events = options.events;
    if (!events) {
      const own = await openConfiguredEventStream(config.common, 'billing', logger);
      onClose(() => own.close());
      events = own;
    }
    const store = await openServiceStore<BillingStore>(config.common, {
      service: 'billing',
      sqlite: (file) => new SqliteBillingStore(file),
      mongo: async (uri, database) => (await import('./store/mongo.js')).MongoBillingStore.connect(uri, database),
    });
    onClose(() => store.close());
    const relay = await startWalletEventRelay(store.outbox, events, logger);
    onClose(async () => {
      // Events committed by the last calls before the stop, published now rather than on the next
      // start, unless the outbox or the stream is not answering.
      const leftBehind = (error?: unknown) => logger.warn('wallet events left for the next start', { error });
      if (!(await relay.stop())) return leftBehind();
      if (!(await settledWithin(relay.runOnce().catch(leftBehind)))) leftBehind();
    });
    const wallets = new Wallets(store, issuers, now);
    const jobs = await startPeriodicJobs(config.common, 'billing', { logger, clock: now }, [
      new HoldSweeper({ store, logger: logger.child({ component: 'hold-sweeper' }) }).job(),
      billingRetentionJob(store, config.common.retention),
    ]);
    onClose(() => jobs.stop());
    const consumption = await new UsageConsumer({ store, wallets, walletEvents: relay, logger: logger.child({ component: 'usage' }), now }).start(events);
    onClose(() => consumption.stop());
    return startConnectServer({
      ...serviceServerOptions('billing', config, { logger: logger, local: options.local, signer }),
      serviceNames: billingServiceNames,
      routes: billingRoutes({ store, wallets, walletEvents: relay, now }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('billing', startBillingService);
