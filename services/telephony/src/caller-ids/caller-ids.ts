// CallerIdService: numbers a workspace holds elsewhere, verified by a code sent there (by SMS or said
// in a call, under the same rules either way) before its calls may show them. Codes are kept as
// keyed hashes, expire, and take a few wrong attempts; racing checks apply once each (the store
// applies a check only to the state it was made against). Codes sent are limited per destination
// number and per workspace (code-send-limits.ts).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { normalisePage } from '@voice/runtime/validation';
import type {
  CallerIdService,
  CreateCallerIdRequest,
  DeleteCallerIdRequest,
  GetCallerIdRequest,
  ListCallerIdsRequest,
  VerifyCallerIdRequest,
} from '@voice/proto/voice/telephony/v1/caller_ids';
import {
  createCallerIdBodySchema,
  maxVerificationAttempts,
  parseE164,
  verificationCodeLifetimeMinutes,
  verifyCallerIdBodySchema,
} from '@voice/contracts/telephony';
import { presentCallerId } from '../presenter.js';
import type { CallerIdRecord, CallerIdStore, NumberStore } from '../store/store.js';
import { loadOr404, parseInput } from '../input.js';
import type { CodeSendLimits } from './code-send-limits.js';
import { newVerificationCode, type VerificationCodes } from './verification-code.js';

export interface CallerIdDeps {
  store: CallerIdStore & NumberStore;
  codes: VerificationCodes;
  limits: Pick<CodeSendLimits, 'take'>;
  /** Sends the code to the caller ID's number by its method (charging what it costs); throws when it was not sent. */
  sendCode: Record<CallerIdRecord['method'], (callerId: CallerIdRecord, code: string, requestId: string) => Promise<void>>;
  now(): Date;
}

/** Checks of one code that lose every race to other checks give up after this many reads. */
const maxCheckRounds = 20;

export class CallerIds implements ServiceImpl<typeof CallerIdService> {
  constructor(private readonly deps: CallerIdDeps) {}

  async createCallerId(request: CreateCallerIdRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = parseInput(createCallerIdBodySchema, { phone_number: request.phoneNumber, label: request.label, method: request.method || undefined });
    const phoneNumber = parseE164(input.phone_number)!.number;
    if ((await this.deps.store.heldNumbers([phoneNumber])).has(phoneNumber)) {
      throw serviceError('conflict', 'the number is a phone number on this platform: a workspace’s own number is used as `from` directly, without a caller ID');
    }
    // Counted as the send is attempted, before anything is stored: refused later (the number is a
    // live caller ID already, a wallet that cannot pay, a carrier refusal) it still counts, as any
    // request to reach the number does.
    await this.deps.limits.take(caller.workspaceId, phoneNumber);
    const code = newVerificationCode();
    const now = this.deps.now();
    const id = newId();
    const callerId: CallerIdRecord = {
      id,
      workspaceId: caller.workspaceId,
      phoneNumber,
      label: input.label,
      method: input.method,
      status: 'pending',
      codeHash: this.deps.codes.hash(id, code),
      codeExpiresAt: new Date(now.getTime() + verificationCodeLifetimeMinutes * 60_000).toISOString(),
      attempts: 0,
      verifiedAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    if ((await this.deps.store.insertCallerId(callerId)).kind === 'exists') {
      throw serviceError('conflict', 'the number is already a caller ID of this workspace (pending with a valid code, or verified)');
    }
    try {
      await this.deps.sendCode[callerId.method](callerId, code, caller.requestId);
    } catch (error) {
      await this.deps.store.deleteCallerId(caller.workspaceId, id);
      throw error;
    }
    return { callerId: presentCallerId(callerId) };
  }

  async listCallerIds(request: ListCallerIdsRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const { callerIds, total } = await this.deps.store.listCallerIds(workspaceId, normalisePage(request.page));
    return { callerIds: callerIds.map(presentCallerId), total };
  }

  async getCallerId(request: GetCallerIdRequest, context: HandlerContext) {
    return { callerId: presentCallerId(await this.load(request.id, context)) };
  }

  async deleteCallerId(request: DeleteCallerIdRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const callerId = await this.load(request.id, context);
    if (!(await this.deps.store.deleteCallerId(workspaceId, callerId.id))) throw notFound('caller ID');
    return {};
  }

  async verifyCallerId(request: VerifyCallerIdRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    let callerId = await this.load(request.id, context);
    const { code } = parseInput(verifyCallerIdBodySchema, { code: request.code });
    for (let round = 0; round < maxCheckRounds; round++) {
      const now = this.deps.now().toISOString();
      if (callerId.status === 'verified') throw serviceError('conflict', 'the caller ID is already verified');
      if (callerId.status === 'failed') throw serviceError('conflict', `the caller ID failed after ${maxVerificationAttempts} wrong codes; POST /caller-ids again for a new code`);
      if (callerId.codeExpiresAt <= now) throw serviceError('conflict', 'the code expired; POST /caller-ids again for a new code');
      const right = this.deps.codes.matches(callerId.id, code, callerId.codeHash);
      const applied = await this.deps.store.applyCode(workspaceId, callerId.id, callerId.attempts, right ? { kind: 'verified' } : { kind: 'wrong', maxAttempts: maxVerificationAttempts }, now);
      if (applied) {
        if (right) return { callerId: presentCallerId(applied) };
        const left = maxVerificationAttempts - applied.attempts;
        const issue = left > 0 ? `is not the code sent; ${left} attempt${left === 1 ? '' : 's'} left` : 'is not the code sent; no attempts left, the caller ID failed: POST /caller-ids again for a new code';
        throw invalidRequest([{ field: 'code', issue }]);
      }
      // Another check came first: decide again on what it left.
      callerId = await this.load(callerId.id, context);
    }
    throw serviceError('conflict', 'the caller ID is being checked by many requests at once; retry shortly');
  }

  private load(id: string, context: HandlerContext): Promise<CallerIdRecord> {
    const { workspaceId } = workspaceCallerOf(context);
    return loadOr404('caller ID', id, (key) => this.deps.store.getCallerId(workspaceId, key));
  }
}
