// The campaigns service's routes over a real SQLite store, behind either test tier (the router
// transport or a real server on port 0), with the signed-caller check production runs. The services a
// campaign is checked against are played here (test/campaigns*.test.ts runs the real ones): the
// workspaces' assistants, their numbers (voice-capable or not), their suppression lists and the calls
// service's count of a campaign's calls, each recording what it was asked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { create } from '@bufbuild/protobuf';
import { CampaignCallSummarySchema, type CampaignCallSummary } from '@voice/proto/voice/calls/v1/calls';
import { CallbacksService } from '@voice/proto/voice/campaigns/v1/callbacks';
import { CampaignsService, LeadsService, SegmentsService } from '@voice/proto/voice/campaigns/v1/campaigns';
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { newId } from '@voice/runtime/ids';
import { InProcessEventStream } from '@voice/runtime/events';
import { createLogger } from '@voice/runtime/logger';
import { callerInterceptor } from '@voice/runtime/server';
import type { CampaignPeers } from '../src/peers/peers.js';
import { openCallbackQueue } from '../src/dialer/callback-job.js';
import type { CampaignCalls } from '../src/peers/campaign-calls.js';
import { openDialQueue } from '../src/dialer/dial-job.js';
import { campaignsRoutes } from '../src/routes.js';
import { SqliteCampaignStore } from '../src/store/sqlite.js';
import type { CampaignStore } from '../src/store/store.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

export class PlayedPeers implements CampaignPeers {
  readonly assistants = new Set<string>();
  readonly numbers = new Map<string, 'voice' | 'no_voice'>();
  readonly suppressed = new Set<string>();
  /** How many numbers each suppression question asked about, in order. */
  readonly suppressionQuestions: number[] = [];

  addAssistant(workspaceId: string): string {
    const id = newId();
    this.assistants.add(`${workspaceId}:${id}`);
    return id;
  }

  addNumber(workspaceId: string, voice = true): string {
    const id = newId();
    this.numbers.set(`${workspaceId}:${id}`, voice ? 'voice' : 'no_voice');
    return id;
  }

  suppress(workspaceId: string, number: string): void {
    this.suppressed.add(`${workspaceId}:${number}`);
  }

  async assistantExists(caller: WorkspaceCaller, id: string): Promise<boolean> {
    return this.assistants.has(`${caller.workspaceId}:${id}`);
  }

  async callingNumbers(caller: WorkspaceCaller, ids: readonly string[]): Promise<Map<string, 'voice' | 'no_voice' | 'missing'>> {
    return new Map(ids.map((id) => [id, this.numbers.get(`${caller.workspaceId}:${id}`) ?? 'missing']));
  }

  async numberOf(caller: WorkspaceCaller, id: string): Promise<string | undefined> {
    return this.numbers.has(`${caller.workspaceId}:${id}`) ? '+14155550100' : undefined;
  }

  async suppressedAmong(caller: WorkspaceCaller, numbers: readonly string[]): Promise<Set<string>> {
    this.suppressionQuestions.push(numbers.length);
    return new Set(numbers.filter((number) => this.suppressed.has(`${caller.workspaceId}:${number}`)));
  }
}

/** The calls service's side of a campaign's progress: the summary it would count, per workspace and campaign, and who asked. */
export class PlayedCampaignCalls implements CampaignCalls {
  readonly summaries = new Map<string, CampaignCallSummary>();
  readonly asked: { workspaceId: string; campaignId: string }[] = [];

  async summarize(caller: WorkspaceCaller, campaignId: string): Promise<CampaignCallSummary> {
    this.asked.push({ workspaceId: caller.workspaceId, campaignId });
    return this.summaries.get(`${caller.workspaceId}:${campaignId}`) ?? create(CampaignCallSummarySchema);
  }
}

export interface CampaignsTier {
  campaigns: TierClient<typeof CampaignsService>;
  leads: Client<typeof LeadsService>;
  segments: Client<typeof SegmentsService>;
  callbacks: Client<typeof CallbacksService>;
  /** The service's store, for states only the dialer makes (a callback being placed). */
  store: CampaignStore;
  peers: PlayedPeers;
  campaignCalls: PlayedCampaignCalls;
  /** The caller options of a service account of the workspace. */
  inWorkspace: TierClient<typeof CampaignsService>['inWorkspace'];
  /** The server's address (tier 3 only). */
  url?: string;
  close(): Promise<void>;
}

/** The service's three areas over one store, on tier 2 (router) or 3 (server); close() ends the tier, then the store. */
export async function setup(tier: 'router' | 'server' = 'router'): Promise<CampaignsTier> {
  const dir = mkdtempSync(join(tmpdir(), 'campaigns-service-'));
  const store = new SqliteCampaignStore(join(dir, 'campaigns.sqlite'));
  const peers = new PlayedPeers();
  const events = new InProcessEventStream(createLogger({ service: 'test', level: 'silent' }));
  const dialQueue = await openDialQueue(events, createLogger({ service: 'test', level: 'silent' }));
  const callbackQueue = await openCallbackQueue(events, createLogger({ service: 'test', level: 'silent' }));
  const campaignCalls = new PlayedCampaignCalls();
  const routes = campaignsRoutes({ store, peers, campaignCalls, dialQueue, callbackQueue, now: () => new Date() });
  const served = tier === 'server' ? await serverClient(CampaignsService, routes) : undefined;
  const campaigns = served ?? routerClient(CampaignsService, routes);
  // The other areas answer on the same routes (and, on tier 3, the same server), signed by the same key.
  const transport = served
    ? createConnectTransport({ baseUrl: served.server.url, httpVersion: '2' })
    : createRouterTransport(routes, { router: { interceptors: [callerInterceptor(campaigns.signer, createLogger({ service: 'test', level: 'silent' }))] } });
  return {
    campaigns,
    leads: createClient(LeadsService, transport),
    segments: createClient(SegmentsService, transport),
    callbacks: createClient(CallbacksService, transport),
    store,
    peers,
    campaignCalls,
    inWorkspace: campaigns.inWorkspace,
    url: served?.server.url,
    close: async () => {
      await campaigns.close();
      await events.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
