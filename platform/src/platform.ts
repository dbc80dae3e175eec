// The whole platform in one process: every service on its own loopback port (for outside gRPC
// callers), called by the gateway and by each other through their handlers in process
// (VOICE_INTERNAL_TRANSPORT=in-process, the default) or over loopback HTTP/2 (`http2`), sharing
// one in-process notifier; data under DATA_DIR. The sandbox voice runtime streams calls' media on a
// loopback port of its own. The process serves one metrics endpoint for all
// of them (each service's metrics carry its `service` label).
import { holdFreePort } from './held-port.js';
import { freePortsEnv, readCommonConfig, servicePorts, serviceVariablePrefix, type Env, type ServiceName as RuntimeServiceName } from '@voice/runtime/config';
import { openConfiguredEventStream, type EventStream } from '@voice/runtime/events';
import { InProcessServices, readInternalTransport, type InternalTransportKind } from '@voice/runtime/internal';
import { createLogger, type Logger } from '@voice/runtime/logger';
import {
  collectProcessMetrics,
  readMetricsConfig,
  startMetricsServer,
  type MetricsServer,
} from '@voice/runtime/metrics';
import { openNotifier, type Notifier } from '@voice/runtime/nats';
import { reachableHost } from '@voice/runtime/server';
import { startAssistantsService } from '@voice/assistants';
import { startBillingService } from '@voice/billing';
import { startCallsService } from '@voice/calls';
import { startCampaignDialer, startCampaignsService } from '@voice/campaigns';
import { startGateway, type StartedGateway } from '@voice/gateway';
import { startIdentityService } from '@voice/identity';
import { startPlatformUsersService } from '@voice/platform-users';
import { startTelephonyService } from '@voice/telephony';
import { startToolsService } from '@voice/tools';
import { startWebhookDelivery, startWebhooksService } from '@voice/webhooks';
import { mediaUrlOf, startVoiceSandbox, type StartedVoiceSandbox } from '@voice/voice-sandbox';

export interface RunningPlatform {
  url: string;
  port: number;
  /** The gateway's express app (tests read its REST route table). */
  gatewayApp: StartedGateway['app'];
  /** The process's Prometheus endpoint (`…/metrics`); undefined with VOICE_METRICS_PORT=off. */
  metricsUrl: string | undefined;
  /** Loopback addresses of the services, for internal gRPC callers (tests, operators' tools). */
  services: Record<'identity' | 'tools' | 'telephony' | 'billing' | 'platformUsers' | 'assistants' | 'webhooks' | 'webhooksDelivery' | 'calls' | 'campaigns' | 'campaignsDialer', string>;
  /** How the gateway and the services call each other (VOICE_INTERNAL_TRANSPORT). */
  internalTransport: InternalTransportKind;
  /** The event stream every service of the process shares (a test replays an event through it). */
  events: EventStream;
  /** Stops one service while the rest keep running (fault drills and tests). */
  stopService(name: keyof RunningPlatform['services']): Promise<void>;
  /** Starts a stopped service again, on the address it had. */
  startService(name: keyof RunningPlatform['services']): Promise<void>;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** Receives the one-time root key line on first start; stdout by default. */
  announce?: (line: string) => void;
  logger?: (service: string) => Logger;
}

/** Services listen on free loopback ports unless the operator pinned them. */
const loopbackDefaults = (env: Env): Env => ({ ...freePortsEnv(), ...env });

type ServiceName = keyof RunningPlatform['services'];

/** The variable of a service's port, from runtime's table (`platformUsers` is the service `platform-users`). */
function portVariableOf(name: ServiceName): string {
  const service = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  if (!(service in servicePorts)) throw new Error(`${name} is no service of runtime's table (services/runtime/src/config/services.ts)`);
  return `${serviceVariablePrefix(service as RuntimeServiceName)}_PORT`;
}

interface Running {
  server: { url: string; port: number };
  close(): Promise<void>;
}

export async function startPlatform(env: Env, options: PlatformOptions = {}): Promise<RunningPlatform> {
  const heldPort = env.PORT === '0' ? await holdFreePort(env.HOST ?? '127.0.0.1') : undefined;
  const gatewayEnv = heldPort ? { ...env, PORT: String(heldPort.port) } : env;
  const serviceEnv = loopbackDefaults(gatewayEnv);
  const common = readCommonConfig(serviceEnv);
  const metricsConfig = readMetricsConfig(serviceEnv);
  const internalTransport = readInternalTransport(serviceEnv, 'every-part');
  const local = internalTransport === 'in-process' ? new InProcessServices() : undefined;
  const loggerFor = options.logger ?? ((service: string) => createLogger({ service, level: common.logLevel }));
  const notifier: Notifier = await openNotifier(common.natsUrl, 'platform');
  // One stream for every service: in-process without NATS_URL, so producers and consumers meet.
  const events: EventStream = await openConfiguredEventStream(common, 'platform', loggerFor('events'));
  const running = new Map<ServiceName | 'gateway', Running>();
  let voiceSandbox: StartedVoiceSandbox | undefined;
  let metricsServer: MetricsServer | undefined;
  const urls = {} as Record<ServiceName, string>;
  // Tools and telephony ask the assistants service about assistants, and it asks them back: its
  // address is chosen (and held) before any of them starts, so each knows the other's.
  const assistantsHost = serviceEnv.VOICE_ASSISTANTS_HOST ?? '127.0.0.1';
  const assistantsPort = serviceEnv.VOICE_ASSISTANTS_PORT === '0' ? await holdFreePort(assistantsHost) : undefined;
  urls.assistants = `http://${reachableHost(assistantsHost)}:${assistantsPort?.port ?? serviceEnv.VOICE_ASSISTANTS_PORT}`;
  // Telephony hands inbound calls to the calls service, which is started after it: its address is held too.
  const callsHost = serviceEnv.VOICE_CALLS_HOST ?? '127.0.0.1';
  const callsPort = serviceEnv.VOICE_CALLS_PORT === '0' ? await holdFreePort(callsHost) : undefined;
  urls.calls = `http://${reachableHost(callsHost)}:${callsPort?.port ?? serviceEnv.VOICE_CALLS_PORT}`;
  // The gateway streams recordings from the calls service's media endpoint: its address is held too.
  const callsMediaHost = serviceEnv.VOICE_CALLS_MEDIA_HOST ?? '127.0.0.1';
  const callsMediaPort = serviceEnv.VOICE_CALLS_MEDIA_PORT === '0' ? await holdFreePort(callsMediaHost) : undefined;
  const callsMediaUrl = `http://${reachableHost(callsMediaHost)}:${callsMediaPort?.port ?? serviceEnv.VOICE_CALLS_MEDIA_PORT}`;
  // The sandbox voice runtime answers calls' media unless another runtime is named (VOICE_MEDIA_URL).
  // It reports to services that start before it, and telephony must know its address when it starts:
  // its port is chosen (and held) now, the runtime started once the services run.
  const sandboxRuntime =
    serviceEnv.VOICE_MEDIA_URL === undefined
      ? await (async () => {
          const host = serviceEnv.VOICE_SANDBOX_RUNTIME_HOST ?? '127.0.0.1';
          const port = (serviceEnv.VOICE_SANDBOX_RUNTIME_PORT ?? '0') === '0' ? await holdFreePort(host) : undefined;
          return { host, port, mediaUrl: mediaUrlOf(`http://${reachableHost(host)}:${port?.port ?? serviceEnv.VOICE_SANDBOX_RUNTIME_PORT}`) };
        })()
      : undefined;
  const mediaUrl = serviceEnv.VOICE_MEDIA_URL ?? sandboxRuntime!.mediaUrl;
  // In start order: each service may call those started before it.
  const starters: Record<ServiceName, (env: Env) => Promise<Running>> = {
    identity: (serviceEnv) => startIdentityService(serviceEnv, { logger: loggerFor('identity'), notifier, announce: options.announce, local }),
    tools: (serviceEnv) => startToolsService({ ...serviceEnv, VOICE_ASSISTANTS_URL: urls.assistants }, { logger: loggerFor('tools'), local }),
    billing: (serviceEnv) => startBillingService({ ...serviceEnv, VOICE_IDENTITY_URL: urls.identity }, { logger: loggerFor('billing'), events, local }),
    telephony: (serviceEnv) =>
      startTelephonyService(
        { ...serviceEnv, VOICE_BILLING_URL: urls.billing, VOICE_ASSISTANTS_URL: urls.assistants, VOICE_CALLS_URL: urls.calls, VOICE_MEDIA_URL: mediaUrl },
        { logger: loggerFor('telephony'), events, local },
      ),
    platformUsers: (serviceEnv) =>
      startPlatformUsersService({ ...serviceEnv, VOICE_IDENTITY_URL: urls.identity, VOICE_BILLING_URL: urls.billing }, { logger: loggerFor('platform-users'), local }),
    assistants: async (serviceEnv) => {
      await assistantsPort?.release();
      return startAssistantsService({ ...serviceEnv, VOICE_TOOLS_URL: urls.tools, VOICE_TELEPHONY_URL: urls.telephony, VOICE_PLATFORM_USERS_URL: urls.platformUsers }, { logger: loggerFor('assistants'), local });
    },
    webhooks: (serviceEnv) => startWebhooksService(serviceEnv, { logger: loggerFor('webhooks'), local }),
    webhooksDelivery: (serviceEnv) => startWebhookDelivery({ ...serviceEnv, VOICE_PLATFORM_USERS_URL: urls.platformUsers }, { logger: loggerFor('webhooks-delivery'), events, local }),
    calls: async (serviceEnv) => {
      await callsPort?.release();
      await callsMediaPort?.release();
      return startCallsService(
        { ...serviceEnv, VOICE_CALLS_MEDIA_PORT: String(callsMediaPort?.port ?? serviceEnv.VOICE_CALLS_MEDIA_PORT), VOICE_ASSISTANTS_URL: urls.assistants, VOICE_TELEPHONY_URL: urls.telephony, VOICE_BILLING_URL: urls.billing, VOICE_TOOLS_URL: urls.tools, VOICE_IDENTITY_URL: urls.identity, VOICE_PLATFORM_USERS_URL: urls.platformUsers },
        { logger: loggerFor('calls'), events, local },
      );
    },
    campaigns: (serviceEnv) =>
      startCampaignsService({ ...serviceEnv, VOICE_ASSISTANTS_URL: urls.assistants, VOICE_TELEPHONY_URL: urls.telephony, VOICE_CALLS_URL: urls.calls }, { logger: loggerFor('campaigns'), events, local }),
    campaignsDialer: (serviceEnv) =>
      startCampaignDialer(
        { ...serviceEnv, VOICE_ASSISTANTS_URL: urls.assistants, VOICE_TELEPHONY_URL: urls.telephony, VOICE_CALLS_URL: urls.calls },
        { logger: loggerFor('campaigns-dialer'), events, local },
      ),
  };
  const startService = async (name: ServiceName) => {
    if (running.has(name)) return;
    // A restarted service comes back on the port it had, so its callers need no new address.
    const port = urls[name] ? new URL(urls[name]).port : undefined;
    const service = await starters[name](port ? { ...serviceEnv, [portVariableOf(name)]: port } : serviceEnv);
    running.set(name, service);
    urls[name] = service.server.url;
  };
  const stopService = async (name: ServiceName) => {
    const service = running.get(name);
    running.delete(name);
    await service?.close();
  };
  const shutdown = async () => {
    // The gateway first, so no request reaches a service that is already gone.
    await stopService('gateway' as ServiceName);
    // Calls still streaming end before the services they report to.
    await voiceSandbox?.close();
    for (const name of (Object.keys(starters) as ServiceName[]).reverse()) await stopService(name);
    await events.close();
    await notifier.close();
    await metricsServer?.close();
  };
  try {
    // The one metrics server of the process; the services' start functions never open their own.
    if (metricsConfig) {
      metricsServer = await startMetricsServer({ ...metricsConfig, logger: loggerFor('platform') });
      collectProcessMetrics('platform');
    }
    for (const name of Object.keys(starters) as ServiceName[]) await startService(name);
    if (sandboxRuntime) {
      await sandboxRuntime.port?.release();
      voiceSandbox = await startVoiceSandbox(
        {
          ...serviceEnv,
          VOICE_CALLS_URL: urls.calls,
          VOICE_SANDBOX_RUNTIME_HOST: sandboxRuntime.host,
          VOICE_SANDBOX_RUNTIME_PORT: String(sandboxRuntime.port?.port ?? serviceEnv.VOICE_SANDBOX_RUNTIME_PORT),
        },
        { logger: loggerFor('voice-sandbox'), local },
      );
    }
    await heldPort?.release();
    const gateway = await startGateway(
      {
        ...gatewayEnv,
        VOICE_IDENTITY_URL: urls.identity,
        VOICE_TOOLS_URL: urls.tools,
        VOICE_TELEPHONY_URL: urls.telephony,
        VOICE_BILLING_URL: urls.billing,
        VOICE_PLATFORM_USERS_URL: urls.platformUsers,
        VOICE_ASSISTANTS_URL: urls.assistants,
        VOICE_CALLS_URL: urls.calls,
        VOICE_CALLS_MEDIA_URL: callsMediaUrl,
        VOICE_WEBHOOKS_URL: urls.webhooks,
        VOICE_CAMPAIGNS_URL: urls.campaigns,
      },
      { logger: loggerFor('gateway'), notifier, local },
    );
    running.set('gateway', { server: { url: gateway.url, port: gateway.port }, close: () => gateway.close() });
    return {
      url: gateway.url,
      port: gateway.port,
      metricsUrl: metricsServer?.url,
      gatewayApp: gateway.app,
      services: { ...urls },
      internalTransport,
      events,
      stopService,
      startService,
      close: shutdown,
    };
  } catch (error) {
    await heldPort?.release();
    await assistantsPort?.release();
    await callsPort?.release();
    await callsMediaPort?.release();
    await sandboxRuntime?.port?.release();
    await shutdown();
    throw error;
  }
}
