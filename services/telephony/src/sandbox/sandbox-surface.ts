// SandboxService: the sandbox carrier's test surface. It shows what a phone reached through the
// sandbox heard (a caller ID's code said in a call); everything it answers is the calling workspace's.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { notFound } from '@voice/runtime/errors';
import { toTimestamp } from '@voice/runtime/time';
import type { GetVerificationCallRequest, SandboxService } from '@voice/proto/voice/telephony/v1/sandbox';
import { SandboxCarrier } from '../carriers/sandbox.js';
import type { CarrierDirectory } from '../carriers/directory.js';
import { loadOr404 } from '../input.js';
import type { CallerIdStore } from '../store/store.js';

export interface SandboxSurfaceDeps {
  store: CallerIdStore;
  carriers: CarrierDirectory;
}

export class SandboxSurface implements ServiceImpl<typeof SandboxService> {
  constructor(private readonly deps: SandboxSurfaceDeps) {}

  async getVerificationCall(request: GetVerificationCallRequest, context: HandlerContext) {
    const { workspaceId } = workspaceCallerOf(context);
    const callerId = await loadOr404('caller ID', request.callerId, (id) => this.deps.store.getCallerId(workspaceId, id));
    const carrier = this.deps.carriers.platform();
    const heard = carrier instanceof SandboxCarrier ? carrier.heardCall(callerId.id) : undefined;
    if (!heard) throw notFound('verification call');
    return { call: { from: heard.from, to: heard.to, speech: heard.speech, answeredAt: toTimestamp(heard.answeredAt) } };
  }
}
