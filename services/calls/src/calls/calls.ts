// The CallsService: creating a call (calls/create-call.ts), reading and listing the workspace's
// calls, and removing a call's recording. The workspace always comes from the signed caller.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { toIso } from '@voice/runtime/time';
import { normalisePage } from '@voice/runtime/validation';
import { callDirectionNameOf, callStatusNameOf } from '@voice/contracts/calls-presenters';
import { parseE164 } from '@voice/contracts/telephony';
import {
  CallDirection,
  CallStatus,
  type CallsService,
  type CreateCallRequest,
  type DeleteCallRecordingRequest,
  type GetCallRecordingRequest,
  type GetCallRequest,
  type ListCallsRequest,
  type SummarizeCampaignCallsRequest,
} from '@voice/proto/voice/calls/v1/calls';
import type { CallsDeps } from '../deps.js';
import { presentCall } from '../presenter.js';
import type { CallFilter, CallView } from '../store/store.js';
import { createCall } from './create-call.js';
import { presentCampaignCallSummary } from './campaign-summary.js';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';

export class Calls implements Pick<ServiceImpl<typeof CallsService>, 'createCall' | 'getCall' | 'listCalls' | 'getCallRecording' | 'deleteCallRecording' | 'summarizeCampaignCalls'> {
  constructor(private readonly deps: CallsDeps) {}

  async createCall(request: CreateCallRequest, context: HandlerContext) {
    return createCall(this.deps, request, workspaceCallerOf(context));
  }

  async getCall(request: GetCallRequest, context: HandlerContext) {
    return { call: presentCall(await this.load(request.id, context)) };
  }

  async listCalls(request: ListCallsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const filter = listFilter(request);
    const { calls, total } = await this.deps.store.listCalls(caller.workspaceId, filter, normalisePage(request.page));
    return { calls: calls.map(presentCall), total };
  }

  /** What the call's recording is (its bytes are served by the media endpoint, media/recordings-server.ts). */
  async getCallRecording(request: GetCallRecordingRequest, context: HandlerContext) {
    const call = await this.load(request.callId, context);
    const recording = call.hasRecording ? await this.deps.store.describeRecording(call.id) : undefined;
    if (!recording) throw notFound('recording');
    return { contentType: recording.contentType, sizeBytes: BigInt(recording.sizeBytes), durationSeconds: call.durationSeconds };
  }

  /** Removes the recording for good: the file (or GridFS file), then the call's mark. */
  async deleteCallRecording(request: DeleteCallRecordingRequest, context: HandlerContext) {
    const call = await this.load(request.callId, context);
    if (!call.hasRecording) throw notFound('recording');
    await this.deps.store.deleteRecording(call.id);
    await retryOnConflict(`recording removal of call ${call.id}`, async () => {
      const current = (await this.deps.store.getCallById(call.id))!;
      if (!current.hasRecording) return { done: undefined };
      return (await this.deps.store.updateCall(call.id, current.version, { hasRecording: false }, [], [], this.deps.now().toISOString())) ? { done: undefined } : undefined;
    });
    return {};
  }

  /** A campaign's calls of the caller's workspace (none for another workspace's campaign). */
  async summarizeCampaignCalls(request: SummarizeCampaignCallsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    if (!isUuid(request.campaignId)) throw invalidRequest([{ field: 'campaign_id', issue: 'must be a campaign id' }]);
    return { summary: presentCampaignCallSummary(await this.deps.store.summarizeCampaignCalls(caller.workspaceId, request.campaignId)) };
  }

  private async load(id: string, context: HandlerContext): Promise<CallView> {
    const caller = workspaceCallerOf(context);
    const call = isUuid(id) ? await this.deps.store.getCall(caller.workspaceId, id) : undefined;
    if (!call) throw notFound('call');
    return call;
  }
}

/** The list's filters as the store takes them; a value the API cannot send is a 400 naming it. */
function listFilter(request: ListCallsRequest): CallFilter {
  const status = request.status === CallStatus.UNSPECIFIED ? undefined : callStatusNameOf(request.status);
  const direction = request.direction === CallDirection.UNSPECIFIED ? undefined : callDirectionNameOf(request.direction);
  const number = request.number ? parseE164(request.number)?.number : undefined;
  const issues = [
    ...(request.status !== CallStatus.UNSPECIFIED && !status ? [{ field: 'status', issue: 'is not a call status' }] : []),
    ...(request.direction !== CallDirection.UNSPECIFIED && !direction ? [{ field: 'direction', issue: 'is not a call direction' }] : []),
    ...(request.assistantId && !isUuid(request.assistantId) ? [{ field: 'assistant_id', issue: 'must be a UUID' }] : []),
    ...(request.number && !number ? [{ field: 'number', issue: 'must be a valid phone number' }] : []),
  ];
  if (issues.length > 0) throw invalidRequest(issues);
  return {
    status,
    direction,
    assistantId: request.assistantId || undefined,
    number,
    createdFrom: toIso(request.createdFrom) ?? undefined,
    createdTo: toIso(request.createdTo) ?? undefined,
  };
}
