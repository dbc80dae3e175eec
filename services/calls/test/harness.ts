// The calls service's routes over a real SQLite store, behind either test tier (the router transport
// or a real server on port 0), with the signed-caller check production runs. The services a call is
// checked against and placed through are played here (test/calls-*.test.ts runs the real ones):
// an assistant directory, telephony's route check and carrier legs, and billing's holds against one
// wallet per workspace, each recording what it was asked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DescService, JsonObject } from '@bufbuild/protobuf';
import { minuteScale } from '@voice/runtime/amounts';
import { createClient, createRouterTransport } from '@connectrpc/connect';
import { CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { notFound, serviceError } from '@voice/runtime/errors';
import { createLogger } from '@voice/runtime/logger';
import type { PlaceCallLegRequest } from '@voice/proto/voice/telephony/v1/call_legs';
import type { MinutesHoldAnswer, MinutesHoldRequest, MinutesHolds } from '../src/billing/holds.js';
import { SessionTokens } from '../src/domain/session-token.js';
import type { SessionDeps } from '../src/sessions/sessions.js';
import type { CallTool, CallTools, ToolRun } from '../src/peers/call-tools.js';
import type { CallAssistant, CallPeers } from '../src/peers/peers.js';
import { callsRoutes } from '../src/routes.js';
import { SqliteCallStore } from '../src/store/sqlite.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

type LegRequest = Omit<PlaceCallLegRequest, '$typeName' | 'workspaceId'> & { workspaceId: string };

/** Assistants by workspace, numbers by workspace and E.164, suppressed destinations, and the legs placed. */
export class PlayedPeers implements CallPeers {
  readonly assistants = new Map<string, CallAssistant & { workspaceId: string; plans: string[] }>();
  readonly numbers = new Map<string, { id: string; voice: boolean }>();
  readonly suppressed = new Set<string>();
  readonly legs: LegRequest[] = [];
  readonly ended: string[] = [];
  /** Set to make the carrier refuse the next legs with this error. */
  placeFailure: Error | undefined;

  addAssistant(workspaceId: string, id: string, config: JsonObject, plans = ['starter', 'pro', 'enterprise'], version = 1): void {
    this.assistants.set(id, { workspaceId, id, version, config, plans });
  }

  addNumber(workspaceId: string, number: string, id: string, voice = true): void {
    this.numbers.set(`${workspaceId}:${number}`, { id, voice });
  }

  async callAssistant(caller: WorkspaceCaller, id: string, plan: string): Promise<CallAssistant> {
    const assistant = this.assistants.get(id);
    if (!assistant || assistant.workspaceId !== caller.workspaceId) throw notFound('assistant');
    if (!assistant.plans.includes(plan)) throw serviceError('forbidden', `the assistant cannot run on the ${plan} plan`);
    return { id: assistant.id, version: assistant.version, config: assistant.config };
  }

  async checkRoute(caller: WorkspaceCaller, from: string, to: string): Promise<{ numberId: string }> {
    const number = this.numbers.get(`${caller.workspaceId}:${from}`);
    if (!number) throw notFound('phone number');
    if (!number.voice) throw serviceError('telephony_configuration_error', 'the calling number is not voice-capable');
    if (this.suppressed.has(`${caller.workspaceId}:${to}`)) throw serviceError('destination_forbidden', 'suppressed');
    return { numberId: number.id };
  }

  async placeLeg(caller: WorkspaceCaller, request: Omit<PlaceCallLegRequest, '$typeName' | 'workspaceId'>): Promise<{ legId: string }> {
    if (this.placeFailure) throw this.placeFailure;
    this.legs.push({ ...request, workspaceId: caller.workspaceId });
    return { legId: `leg-${this.legs.length}` };
  }

  async endLeg(_caller: WorkspaceCaller, callId: string): Promise<void> {
    this.ended.push(callId);
  }

  /** Workspaces' plans: every workspace is on `pro` unless set here (undefined: none, or suspended). */
  readonly plans = new Map<string, string | undefined>();

  async activePlan(caller: WorkspaceCaller): Promise<string | undefined> {
    return this.plans.has(caller.workspaceId) ? this.plans.get(caller.workspaceId) : 'pro';
  }
}

/** One wallet per workspace (included minutes and credits, in sub-units) that holds as billing's rule does. */
export class PlayedHolds implements MinutesHolds {
  readonly wallets = new Map<string, { minuteUnits: number; creditUnits: number }>();
  readonly held = new Map<string, MinutesHoldRequest & { creditUnits: number; minuteUnits: number }>();
  readonly released: string[] = [];
  unreachable = false;

  async authorize(request: MinutesHoldRequest): Promise<MinutesHoldAnswer> {
    const wallet = this.wallets.get(request.workspaceId) ?? { minuteUnits: 0, creditUnits: 0 };
    const wanted = request.minutes * minuteScale;
    const fromIncluded = Math.min(wanted, wallet.minuteUnits);
    const creditUnits = Math.ceil(((wanted - fromIncluded) * request.creditUnitsPerMinute) / minuteScale);
    if (creditUnits > wallet.creditUnits) return { kind: 'refused', available: { ...wallet } };
    this.wallets.set(request.workspaceId, { minuteUnits: wallet.minuteUnits - fromIncluded, creditUnits: wallet.creditUnits - creditUnits });
    this.held.set(request.holdId, { ...request, minuteUnits: fromIncluded, creditUnits });
    return { kind: 'held' };
  }

  async release(request: Pick<MinutesHoldRequest, 'workspaceId' | 'holdId' | 'requestId'>): Promise<void> {
    this.released.push(request.holdId);
  }
}

/** The api tools of each workspace, and what each run answers. */
export class PlayedTools implements CallTools {
  readonly tools = new Map<string, CallTool & { workspaceId: string; answer: ToolRun }>();
  readonly runs: { toolId: string; args: JsonObject }[] = [];

  add(workspaceId: string, tool: CallTool, answer: ToolRun): void {
    this.tools.set(tool.id, { ...tool, workspaceId, answer });
  }

  async list(workspaceId: string, ids: readonly string[]): Promise<CallTool[]> {
    return ids.flatMap((id) => {
      const tool = this.tools.get(id);
      return tool && tool.workspaceId === workspaceId ? [{ id: tool.id, name: tool.name, description: tool.description, parameters: tool.parameters }] : [];
    });
  }

  async run(_workspaceId: string, toolId: string, args: JsonObject): Promise<ToolRun> {
    this.runs.push({ toolId, args });
    return this.tools.get(toolId)!.answer;
  }
}

export interface Harness<Service extends DescService> {
  tier: TierClient<Service>;
  store: SqliteCallStore;
  peers: PlayedPeers;
  holds: PlayedHolds;
  tools: PlayedTools;
  tokens: SessionTokens;
  deps: SessionDeps;
  close(): Promise<void>;
}

/** Tier 2 by default; `server` puts the routes on a real server on port 0. */
export async function setup<Service extends DescService>(service: Service, kind: 'router' | 'server' = 'router'): Promise<Harness<Service>> {
  const dir = mkdtempSync(join(tmpdir(), 'calls-service-'));
  const store = new SqliteCallStore(join(dir, 'calls.sqlite'));
  const peers = new PlayedPeers();
  const holds = new PlayedHolds();
  const tokens = new SessionTokens(randomBytes(32));
  const tools = new PlayedTools();
  const deps: SessionDeps = {
    store,
    peers,
    holds,
    tokens,
    terms: { creditUnitsPerMinute: 1_000, minuteRounding: 'minute', holdMarginSeconds: 3_600 },
    tools,
    recordingMaxBytes: 1024 * 1024,
    wakeRelay: () => undefined,
    now: () => new Date(),
    logger: createLogger({ service: 'calls-test', level: 'silent' }),
  };
  // The timeline's other channels are telephony's and platform-users': end to end (test/history.test.ts).
  const nowhere = createRouterTransport(() => undefined);
  const history = { store, telephony: createClient(TelephonyService, nowhere), emails: createClient(WorkspaceEmailService, nowhere), signer: new CallerSigner(randomBytes(32)) };
  const routes = callsRoutes(deps, history);
  const tier = kind === 'router' ? routerClient(service, routes) : await serverClient(service, routes);
  return {
    tier,
    store,
    peers,
    holds,
    tools,
    tokens,
    deps,
    close: async () => {
      await tier.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
