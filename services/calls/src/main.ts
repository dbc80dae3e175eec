// Starts the calls service: config, store, the outbox relay (usage and call events), billing's holds,
// the clients of assistants, telephony and tools, the consumers of leg reports and wallet changes,
// the periodic jobs, the Connect server; stops them in
// reverse on close (SIGTERM when run on its own).
import { createClient } from '@connectrpc/connect';
import { CallerSigner } from '@voice/runtime/caller';
import type { Env } from '@voice/runtime/config';
import { OutboxRelay, openConfiguredEventStream, usageStream, type EventStream } from '@voice/runtime/events';
import { openInternalChannel, type InProcessServices } from '@voice/runtime/internal';
import { startPeriodicJobs } from '@voice/runtime/jobs';
import { createLogger, type Logger } from '@voice/runtime/logger';
import { runProcess } from '@voice/runtime/process';
import { serviceServerOptions, startConnectServer, startService, type StartedService } from '@voice/runtime/server';
import { openServiceStore } from '@voice/runtime/store';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { CallLegService } from '@voice/proto/voice/telephony/v1/call_legs';
import { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { startRecordingsServer } from './media/recordings-server.js';
import { startCallConsumers } from './events/consumers.js';
import { ConnectCallTools } from './peers/call-tools.js';
import type { SessionDeps } from './sessions/sessions.js';
import { ConnectMinutesHolds } from './billing/holds.js';
import { readCallsConfig } from './config.js';
import { SessionTokens } from './domain/session-token.js';
import { ConnectCallPeers } from './peers/peers.js';
import { callsRetentionJob } from './retention.js';
import { callsRoutes, callsServiceNames } from './routes.js';
import { SqliteCallStore } from './store/sqlite.js';
import type { CallStore } from './store/store.js';

export interface CallsOptions {
  logger?: Logger;
  /** The event stream to share (single-process platform); otherwise one is opened from NATS_URL and closed with the service. */
  events?: EventStream;
  /** The process's in-process services (single-process mode): the handlers are callable there too. */
  local?: InProcessServices;
}

export async function startCallsService(env: Env, options: CallsOptions = {}): Promise<StartedService> {
  const config = readCallsConfig(env);
  const logger = options.logger ?? createLogger({ service: 'calls', level: config.common.logLevel });
  const signer = new CallerSigner(config.common.internalSecret);
  const store = await openServiceStore<CallStore>(config.common, {
    service: 'calls',
    sqlite: (file) => new SqliteCallStore(file),
    mongo: async (uri, database) => (await import('./store/mongo.js')).MongoCallStore.connect(uri, database),
  });
  return startService(async (onClose) => {
    onClose(() => store.close());
    const events = options.events ?? (await openConfiguredEventStream(config.common, 'calls', logger));
    if (!options.events) onClose(() => events.close());
    await events.ensureStream(usageStream.name, usageStream.subjects);
    const relay = new OutboxRelay({ outbox: store.outbox, stream: events, logger: logger.child({ component: 'calls-relay' }) });
    relay.start();
    onClose(async () => {
      await relay.stop();
    });

    const channel = (name: string, url: string) => {
      const opened = openInternalChannel({ name, url }, options.local);
      onClose(() => opened.close());
      return opened.transport;
    };
    const assistants = channel('assistants', config.assistantsUrl);
    const telephony = channel('telephony', config.telephonyUrl);
    const billing = channel('billing', config.billingUrl);
    const tools = channel('tools', config.toolsUrl);
    const identity = channel('identity', config.identityUrl);
    const platformUsers = channel('platform-users', config.platformUsersUrl);
    const jobs = await startPeriodicJobs(config.common, 'calls', { logger }, [callsRetentionJob(store, config.common.retention)]);
    onClose(() => jobs.stop());

    const deps: SessionDeps = {
      store,
      peers: new ConnectCallPeers(
        {
          assistants: createClient(AssistantsService, assistants),
          routes: createClient(CallRouteService, telephony),
          legs: createClient(CallLegService, telephony),
          identity: createClient(IdentityService, identity),
        },
        signer,
      ),
      holds: new ConnectMinutesHolds(createClient(BillingService, billing), signer, logger),
      tokens: new SessionTokens(config.common.internalSecret),
      terms: { creditUnitsPerMinute: config.creditUnitsPerMinute, minuteRounding: config.minuteRounding, holdMarginSeconds: config.holdMarginSeconds },
      tools: new ConnectCallTools(createClient(ToolsService, tools), signer),
      recordingMaxBytes: config.recordingMaxBytes,
      wakeRelay: () => relay.wake(),
      now: () => new Date(),
      logger,
    };
    const emails = createClient(WorkspaceEmailService, platformUsers);
    const consumptions = await startCallConsumers(events, deps, { store, emails, signer });
    onClose(async () => {
      for (const consumption of consumptions) await consumption.stop();
    });
    const recordings = await startRecordingsServer({ ...config.media, store, signer, logger });
    onClose(() => recordings.close());
    return startConnectServer({
      ...serviceServerOptions('calls', config, { logger, local: options.local, signer }),
      serviceNames: callsServiceNames,
      routes: callsRoutes(deps, {
        store,
        telephony: createClient(TelephonyService, telephony),
        emails,
        signer,
      }),
    });
  });
}

// Run on its own: with the process's metrics server (the platform serves one for all its parts).
if (require.main === module) runProcess('calls', startCallsService);
