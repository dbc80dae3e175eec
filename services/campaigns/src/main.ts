// Starts the campaigns service: config, store, the clients of assistants, telephony and calls, the Connect
// server; stops them in reverse on close (SIGTERM when run on its own).
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { openConfiguredEventStream, type EventStream } from '@voice/runtime/events';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { monotonicClock } from '@voice/runtime/time';
import { readCampaignsConfig } from './config.js';
import { openDialQueue } from './dialer/dial-job.js';
import { ConnectCampaignCalls } from './peers/campaign-calls.js';
import { ConnectCampaignPeers } from './peers/peers.js';
import { campaignsRoutes, campaignsServiceNames } from './routes.js';
import { SqliteCampaignStore } from './store/sqlite.js';
import type { CampaignStore } from './store/store.js';

export interface CampaignsOptions {
  logger?: Logger;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
  /** The process's event stream in the single-process mode (left open on close); otherwise one is opened from NATS_URL. */
  events?: EventStream;
}

export async function startCampaignsService(env: Env, options: CampaignsOptions = {}): Promise<StartedService> {
  const config = readCampaignsConfig(env);
  const logger = options.logger ?? createLogger({ service: 'campaigns', level: config.common.logLevel });
  const store = await openServiceStore<CampaignStore>(config.common, {
    service: 'campaigns',
    sqlite: (file) => new SqliteCampaignStore(file),
    mongo: async (uri, database) => (await import('./store/mongo.js')).MongoCampaignStore.connect(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    let events = options.events;
    if (!events) {
      const own = await openConfiguredEventStream(config.common, 'campaigns', logger);
      onClose(() => own.close());
      events = own;
    }
    const dialQueue = await openDialQueue(events, logger.child({ component: 'dial-queue' }));
    const signer = new CallerSigner(config.common.internalSecret);
    const channel = (name: string, url: string) => {
      const opened = openInternalChannel({ name, url }, options.local);
      onClose(() => opened.close());
      return opened.transport;
    };
    const peers = new ConnectCampaignPeers({ assistants: channel('assistants', config.assistantsUrl), telephony: channel('telephony', config.telephonyUrl) }, signer);
    return startConnectServer({
      ...serviceServerOptions('campaigns', config, { logger, local: options.local, signer }),
      serviceNames: campaignsServiceNames,
      routes: campaignsRoutes({ store, peers, campaignCalls: new ConnectCampaignCalls(channel('calls', config.callsUrl), signer), dialQueue, now: monotonicClock() }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('campaigns', startCampaignsService);
