// Connect clients for the services behind the gateway: binary Connect protocol, over one HTTP/2
// session per service or, in the single-process mode, to the services' handlers in process.
import { createClient, type Client } from '@connectrpc/connect';
import { Health } from '@voice/proto/grpc/health/v1/health';
import { AssistantsService } from '@voice/proto/voice/assistants/v1/assistants';
import { CatalogService } from '@voice/proto/voice/assistants/v1/catalog';
import { KnowledgeService } from '@voice/proto/voice/assistants/v1/knowledge';
import { SettingsService } from '@voice/proto/voice/assistants/v1/settings';
import { AssistantVersionsService } from '@voice/proto/voice/assistants/v1/versions';
import { BillingService } from '@voice/proto/voice/billing/v1/billing';
import { CallsService } from '@voice/proto/voice/calls/v1/calls';
import { HistoryService } from '@voice/proto/voice/calls/v1/history';
import { CallbacksService } from '@voice/proto/voice/campaigns/v1/callbacks';
import { CampaignsService, LeadsService, SegmentsService } from '@voice/proto/voice/campaigns/v1/campaigns';
import { IdentityService } from '@voice/proto/voice/identity/v1/identity';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { EmailSenderService, WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { SipTrunkService } from '@voice/proto/voice/telephony/v1/sip_trunks';
import { CallerIdService } from '@voice/proto/voice/telephony/v1/caller_ids';
import { CarrierVoiceService } from '@voice/proto/voice/telephony/v1/carrier_voice';
import { SandboxService } from '@voice/proto/voice/telephony/v1/sandbox';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { WebhooksService } from '@voice/proto/voice/webhooks/v1/webhooks';
import { openInternalChannel, type InProcessServices, type InternalChannel } from '@voice/runtime/internal';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  identity: Client<typeof IdentityService>;
  tools: Client<typeof ToolsService>;
  telephony: Client<typeof TelephonyService>;
  sipTrunks: Client<typeof SipTrunkService>;
  callerIds: Client<typeof CallerIdService>;
  carrierVoice: Client<typeof CarrierVoiceService>;
  sandbox: Client<typeof SandboxService>;
  billing: Client<typeof BillingService>;
  customDomains: Client<typeof CustomDomainService>;
  platformUsers: Client<typeof PlatformUserService>;
  emailSenders: Client<typeof EmailSenderService>;
  workspaceEmails: Client<typeof WorkspaceEmailService>;
  assistants: Client<typeof AssistantsService>;
  assistantVersions: Client<typeof AssistantVersionsService>;
  catalog: Client<typeof CatalogService>;
  settings: Client<typeof SettingsService>;
  knowledge: Client<typeof KnowledgeService>;
  calls: Client<typeof CallsService>;
  history: Client<typeof HistoryService>;
  webhooks: Client<typeof WebhooksService>;
  campaigns: Client<typeof CampaignsService>;
  leads: Client<typeof LeadsService>;
  segments: Client<typeof SegmentsService>;
  callbacks: Client<typeof CallbacksService>;
  /** Health clients of every service /readyz and /health/dependencies report on, by service name. */
  health: Record<string, Client<typeof Health>>;
  /** Closes every HTTP/2 session (shutdown). */
  close(): void;
}

/** The name each service's server registers under (in-process-services.ts). */
const serverNames: Record<keyof GatewayConfig['services'], string> = {
  identity: 'identity',
  tools: 'tools',
  telephony: 'telephony',
  billing: 'billing',
  platformUsers: 'platform-users',
  assistants: 'assistants',
  calls: 'calls',
  webhooks: 'webhooks',
  campaigns: 'campaigns',
};

export function createServiceClients(services: GatewayConfig['services'], local?: InProcessServices): ServiceClients {
  const channels = Object.fromEntries(
    (Object.keys(serverNames) as (keyof GatewayConfig['services'])[]).map((name) => [
      name,
      openInternalChannel({ name: serverNames[name], url: services[name], defaultTimeoutMs: 30_000 }, local),
    ]),
  ) as Record<keyof GatewayConfig['services'], InternalChannel>;
  return {
    identity: createClient(IdentityService, channels.identity.transport),
    tools: createClient(ToolsService, channels.tools.transport),
    telephony: createClient(TelephonyService, channels.telephony.transport),
    sipTrunks: createClient(SipTrunkService, channels.telephony.transport),
    callerIds: createClient(CallerIdService, channels.telephony.transport),
    carrierVoice: createClient(CarrierVoiceService, channels.telephony.transport),
    sandbox: createClient(SandboxService, channels.telephony.transport),
    billing: createClient(BillingService, channels.billing.transport),
    customDomains: createClient(CustomDomainService, channels.platformUsers.transport),
    platformUsers: createClient(PlatformUserService, channels.platformUsers.transport),
    emailSenders: createClient(EmailSenderService, channels.platformUsers.transport),
    workspaceEmails: createClient(WorkspaceEmailService, channels.platformUsers.transport),
    assistants: createClient(AssistantsService, channels.assistants.transport),
    assistantVersions: createClient(AssistantVersionsService, channels.assistants.transport),
    catalog: createClient(CatalogService, channels.assistants.transport),
    settings: createClient(SettingsService, channels.assistants.transport),
    knowledge: createClient(KnowledgeService, channels.assistants.transport),
    calls: createClient(CallsService, channels.calls.transport),
    history: createClient(HistoryService, channels.calls.transport),
    webhooks: createClient(WebhooksService, channels.webhooks.transport),
    campaigns: createClient(CampaignsService, channels.campaigns.transport),
    leads: createClient(LeadsService, channels.campaigns.transport),
    segments: createClient(SegmentsService, channels.campaigns.transport),
    callbacks: createClient(CallbacksService, channels.campaigns.transport),
    health: Object.fromEntries(Object.entries(channels).map(([name, channel]) => [name, createClient(Health, channel.transport)])),
    close: () => Object.values(channels).forEach((channel) => channel.close()),
  };
}
