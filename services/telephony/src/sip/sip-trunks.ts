// SipTrunkService: a workspace's SIP trunks, the numbers routed through them, and the check that
// sends a trunk one SIP OPTIONS request. Passwords are sealed at rest and answered only masked;
// the mask sent back keeps the stored one.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { SecretBox } from '@voice/runtime/crypto';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { EgressRefused } from '@voice/runtime/egress';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type {
  CheckSipTrunkRequest,
  CreateSipTrunkRequest,
  DeleteSipTrunkRequest,
  GetSipTrunkRequest,
  ListSipTrunksRequest,
  SipTrunkService,
  UpdateSipTrunkRequest,
} from '@voice/proto/voice/telephony/v1/sip_trunks';
import { createSipTrunkBodySchema, maxSipTrunksPerWorkspace, parseSipAddress, secretMask, sipTrunkIssues, updateSipTrunkBodySchema } from '@voice/contracts/telephony';
import { presentSipTrunk } from '../presenter.js';
import type { RoutingRefusal, SipTrunkChanges, SipTrunkRecord, SipTrunkStore } from '../store/store.js';
import { loadOr404, parseInput } from '../input.js';
import type { SipCheckResult, SipCheckTarget } from './options-check.js';

export interface SipTrunkDeps {
  store: SipTrunkStore;
  /** Seals trunk passwords at rest. */
  box: SecretBox;
  checker: { check(target: SipCheckTarget): Promise<SipCheckResult> };
  now(): Date;
}

/** A refused routing as the caller's error: a number that is not the workspace's is not found, one routed elsewhere a conflict. */
function routingError(refusal: RoutingRefusal) {
  return refusal.kind === 'numbers_not_found'
    ? serviceError('not_found', `phone number not found: ${refusal.ids.join(', ')}`)
    : serviceError('conflict', `already routed through another SIP trunk: ${refusal.ids.join(', ')}; take it off that trunk first`);
}

export class SipTrunks implements ServiceImpl<typeof SipTrunkService> {
  constructor(private readonly deps: SipTrunkDeps) {}

  async createSipTrunk(request: CreateSipTrunkRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = parseInput(createSipTrunkBodySchema, {
      name: request.name,
      address: request.address,
      transport: request.transport || undefined,
      direction: request.direction || undefined,
      username: request.username,
      password: request.password,
      number_ids: request.numberIds,
    });
    const at = this.deps.now().toISOString();
    const trunk: SipTrunkRecord = {
      id: newId(),
      workspaceId,
      name: input.name,
      address: input.address,
      transport: input.transport,
      direction: input.direction,
      username: input.username ?? '',
      sealedPassword: input.username && input.password !== undefined ? this.deps.box.seal(input.password) : null,
      numberIds: [],
      createdAt: at,
      updatedAt: at,
    };
    const outcome = await this.deps.store.insertSipTrunk(trunk, input.number_ids, maxSipTrunksPerWorkspace);
    if (outcome.kind === 'limit_reached') throw serviceError('conflict', `a workspace holds at most ${maxSipTrunksPerWorkspace} SIP trunks; delete one first`);
    if (outcome.kind !== 'created') throw routingError(outcome);
    return { trunk: presentSipTrunk(outcome.trunk) };
  }

  async listSipTrunks(request: ListSipTrunksRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const { trunks, total } = await this.deps.store.listSipTrunks(workspaceId, normalisePage(request.page));
    return { trunks: trunks.map(presentSipTrunk), total };
  }

  async getSipTrunk(request: GetSipTrunkRequest, context: HandlerContext) {
    return { trunk: presentSipTrunk(await this.load(request.id, context)) };
  }

  async updateSipTrunk(request: UpdateSipTrunkRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const input = parseInput(updateSipTrunkBodySchema, {
      name: request.name,
      address: request.address,
      transport: request.transport,
      direction: request.direction,
      username: request.username,
      password: request.password,
      number_ids: request.replaceNumberIds ? request.numberIds : undefined,
    });
    const current = await this.load(request.id, context);
    const username = input.username ?? current.username;
    const keepsPassword = input.password === undefined || input.password === secretMask;
    if (input.password === secretMask && current.sealedPassword === null) {
      throw invalidRequest([{ field: 'password', issue: 'no password is stored to keep; send the password itself' }]);
    }
    const issues = sipTrunkIssues({
      address: input.address ?? current.address,
      transport: input.transport ?? current.transport,
      username,
      // A password sent is kept; otherwise the stored one stays unless the user name is removed with it.
      hasPassword: !keepsPassword || (username !== '' && current.sealedPassword !== null),
    });
    if (issues.length > 0) throw invalidRequest(issues);
    const changes: SipTrunkChanges = {
      name: input.name,
      address: input.address,
      transport: input.transport,
      direction: input.direction,
      username: input.username,
      // No user name, no authentication: a stored password goes with it.
      sealedPassword: !username ? null : keepsPassword ? undefined : this.deps.box.seal(input.password!),
      numberIds: input.number_ids,
    };
    const outcome = await this.deps.store.updateSipTrunk(workspaceId, current.id, changes, this.deps.now().toISOString());
    if (outcome.kind === 'not_found') throw notFound('SIP trunk');
    if (outcome.kind !== 'updated') throw routingError(outcome);
    return { trunk: presentSipTrunk(outcome.trunk) };
  }

  async deleteSipTrunk(request: DeleteSipTrunkRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const trunk = await this.load(request.id, context);
    const outcome = await this.deps.store.deleteSipTrunk(workspaceId, trunk.id);
    if (outcome === 'in_use') {
      throw serviceError('conflict', 'phone numbers are routed through the SIP trunk; take them off it (PATCH number_ids) or release them first');
    }
    if (outcome === 'not_found') throw notFound('SIP trunk');
    return {};
  }

  async checkSipTrunk(request: CheckSipTrunkRequest, context: HandlerContext) {
    const trunk = await this.load(request.id, context);
    const address = parseSipAddress(trunk.address, trunk.transport)!;
    let result: SipCheckResult;
    try {
      // The password is opened only here, for the challenge the trunk may send.
      const credentials = trunk.username && trunk.sealedPassword ? { username: trunk.username, password: this.deps.box.open(trunk.sealedPassword) } : undefined;
      result = await this.deps.checker.check({ ...address, transport: trunk.transport, credentials });
    } catch (error) {
      if (error instanceof EgressRefused) {
        throw serviceError('destination_forbidden', 'the trunk’s address is a private or reserved address; nothing was sent', { cause: error });
      }
      throw error;
    }
    return result.reachable
      ? { reachable: true, statusCode: result.statusCode, reasonPhrase: result.reasonPhrase, roundTripMs: result.roundTripMs, failure: '', message: '' }
      : { reachable: false, statusCode: 0, reasonPhrase: '', roundTripMs: 0, failure: result.failure, message: result.message };
  }

  private load(id: string, context: HandlerContext): Promise<SipTrunkRecord> {
    const { workspaceId } = workspaceCallerOf(context);
    return loadOr404('SIP trunk', id, (key) => this.deps.store.getSipTrunk(workspaceId, key));
  }
}
