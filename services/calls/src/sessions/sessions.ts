// The CallSessionService: the voice runtime's side of a call. Every request names the call and
// carries its session token, checked in constant time, so a runtime acts on the calls it was handed
// and no other. Reports are stored once by their sequence (a retried one changes nothing); events of
// every type are kept, and only the public allowlist is ever shown. The end of the session hangs the
// leg up; the call ends, and is charged, when its carrier leg reports the end.
import { fromJson, type JsonObject } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { recordingChunkMaxBytes } from '@voice/runtime/call-recordings';
import { internalCallerOf, serviceCaller, type WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError, type FieldIssue } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import { toIso } from '@voice/runtime/time';
import { isEndedStatus, transcriptRoles, voicemailEndReason } from '@voice/contracts/calls';
import type {
  AppendTranscriptRequest,
  CallSessionService,
  EndSessionRequest,
  InvokeToolRequest,
  ReportAnalysisRequest,
  ReportEventsRequest,
  SessionRef,
  StartSessionRequest,
  UploadRecordingRequest,
} from '@voice/proto/voice/calls/v1/call_sessions';
import type { CallsDeps } from '../deps.js';
import { firstMessageOf } from '../domain/first-message.js';
import type { CallTools } from '../peers/call-tools.js';
import { retryOnConflict } from '@voice/runtime/retry-on-conflict';
import { RecordingTooLarge, type CallChanges, type CallReport, type CallView } from '../store/store.js';

/** `voicemail`: the runtime reached a voicemail box and ended the call (after its message, or without one). */
export const sessionEndReasons = ['assistant_ended', 'caller_hung_up', 'max_duration', voicemailEndReason, 'error'] as const;
/** The recording formats the runtime may upload. */
const recordingTypes = ['audio/wav'];
const maxEventTypeLength = 100;
const maxTextLength = 10_000;

export interface SessionDeps extends CallsDeps {
  tools: CallTools;
  /** The largest recording kept. */
  recordingMaxBytes: number;
}

const toolIdsOf = (config: JsonObject): string[] => (Array.isArray(config.tool_ids) ? config.tool_ids.filter((id): id is string => typeof id === 'string') : []);

export class CallSessions implements ServiceImpl<typeof CallSessionService> {
  constructor(private readonly deps: SessionDeps) {}

  /** The call the session names, once its token is checked; anything else is refused the same way. */
  private async session(ref: SessionRef | undefined, context: HandlerContext): Promise<CallView> {
    internalCallerOf(context, 'only the voice runtime may call this');
    if (!ref || !isUuid(ref.callId) || !this.deps.tokens.verify(ref.callId, ref.sessionToken)) {
      throw serviceError('forbidden', 'the session token does not open this call');
    }
    const call = await this.deps.store.getCallById(ref.callId);
    if (!call) throw notFound('call');
    return call;
  }

  /** The calls service acting in the call's workspace, under the runtime's request id. */
  private actingFor(call: CallView, context: HandlerContext): WorkspaceCaller {
    const caller = internalCallerOf(context);
    return serviceCaller('calls', call.workspaceId, caller.requestId);
  }

  async startSession(request: StartSessionRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    if (isEndedStatus(call.status)) throw serviceError('conflict', 'the call has ended');
    const tools = await this.deps.tools.list(call.workspaceId, toolIdsOf(call.assistantConfig), internalCallerOf(context).requestId);
    return {
      assistantId: call.assistantId,
      assistantVersion: call.assistantVersion,
      assistantConfig: call.assistantConfig,
      firstMessage: firstMessageOf(call.assistantConfig, call.variables),
      variables: call.variables,
      metadata: call.metadata,
      tools,
      maxDurationSeconds: call.maxDurationSeconds,
      direction: call.direction,
      from: call.from,
      to: call.to,
    };
  }

  async reportEvents(request: ReportEventsRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    const reports = request.events.map((event, index): CallReport => {
      const issues = [...sequenceIssues(event.sequence, `events[${index}].sequence`)];
      if (event.type.length === 0 || event.type.length > maxEventTypeLength) issues.push({ field: `events[${index}].type`, issue: `must be 1 to ${maxEventTypeLength} characters` });
      const at = toIso(event.at);
      if (!at) issues.push({ field: `events[${index}].at`, issue: 'is required' });
      if (issues.length > 0) throw invalidRequest(issues);
      return { source: 'session', kind: 'event', sequence: Number(event.sequence), type: event.type, at: at!, data: event.data ?? {} };
    });
    await this.deps.store.addReports(call.id, reports);
    return {};
  }

  async appendTranscript(request: AppendTranscriptRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    const issues = sequenceIssues(request.sequence, 'sequence');
    if (!(transcriptRoles as readonly string[]).includes(request.role)) issues.push({ field: 'role', issue: `must be one of ${transcriptRoles.join(', ')}` });
    if (request.text.length > maxTextLength) issues.push({ field: 'text', issue: `must be at most ${maxTextLength} characters` });
    const at = toIso(request.at) ?? this.deps.now().toISOString();
    if (issues.length > 0) throw invalidRequest(issues);
    await this.deps.store.addReports(call.id, [{ source: 'session', kind: 'turn', sequence: Number(request.sequence), role: request.role, text: request.text, at }]);
    return {};
  }

  async invokeTool(request: InvokeToolRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    const issues = sequenceIssues(request.sequence, 'sequence');
    if (issues.length > 0) throw invalidRequest(issues);
    if (isEndedStatus(call.status)) throw serviceError('conflict', 'the call has ended');
    const requestId = internalCallerOf(context).requestId;
    const tool = (await this.deps.tools.list(call.workspaceId, toolIdsOf(call.assistantConfig), requestId)).find((candidate) => candidate.name === request.name);
    const run = tool ? await this.deps.tools.run(call.workspaceId, tool.id, request.arguments ?? {}, requestId) : { ok: false as const, error: `the assistant has no tool named ${request.name}` };
    await this.deps.store.addReports(call.id, [
      { source: 'session', kind: 'event', sequence: Number(request.sequence), type: run.ok ? 'tool.completed' : 'tool.failed', at: this.deps.now().toISOString(), data: { name: request.name } },
    ]);
    return run.ok ? { ok: true, result: fromJson(ValueSchema, run.result) } : { ok: false, error: run.error };
  }

  async uploadRecording(requests: AsyncIterable<UploadRecordingRequest>, context: HandlerContext) {
    const iterator = requests[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw invalidRequest([{ field: 'session', issue: 'is required in the first message' }]);
    const call = await this.session(first.value.session, context);
    const contentType = first.value.contentType;
    if (!recordingTypes.includes(contentType)) throw invalidRequest([{ field: 'content_type', issue: `must be one of ${recordingTypes.join(', ')}` }]);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      let message: IteratorResult<UploadRecordingRequest> = first;
      while (!message.done) {
        if (message.value.chunk.byteLength > recordingChunkMaxBytes) throw invalidRequest([{ field: 'chunk', issue: `must be at most ${recordingChunkMaxBytes} bytes` }]);
        if (message.value.chunk.byteLength > 0) yield message.value.chunk;
        message = await iterator.next();
      }
    }
    let sizeBytes: number;
    try {
      sizeBytes = await this.deps.store.saveRecording(call.id, contentType, chunks(), this.deps.recordingMaxBytes);
    } catch (error) {
      if (error instanceof RecordingTooLarge) throw serviceError('payload_too_large', error.message);
      throw error;
    }
    await this.change(call.id, () => ({ hasRecording: true }));
    return { sizeBytes: BigInt(sizeBytes) };
  }

  async reportAnalysis(request: ReportAnalysisRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    if (request.summary.length > maxTextLength) throw invalidRequest([{ field: 'summary', issue: `must be at most ${maxTextLength} characters` }]);
    await this.change(call.id, () => ({ summary: request.summary || null, verdict: request.verdict || null, extractedFields: request.extractedFields ?? {} }));
    return {};
  }

  async endSession(request: EndSessionRequest, context: HandlerContext) {
    const call = await this.session(request.session, context);
    if (!(sessionEndReasons as readonly string[]).includes(request.reason)) {
      throw invalidRequest([{ field: 'reason', issue: `must be one of ${sessionEndReasons.join(', ')}` }]);
    }
    // The reason stands for the call's end; a leg that completed first left the plain `completed`.
    await this.change(call.id, (current) =>
      !isEndedStatus(current.status) || (current.status === 'completed' && current.endReason === 'completed') ? { endReason: request.reason } : undefined,
    );
    await this.deps.peers.endLeg(this.actingFor(call, context), call.id);
    return {};
  }

  /** One change of the call, planned from the call as it is now (undefined: nothing to change). */
  private change(callId: string, plan: (call: CallView) => CallChanges | undefined): Promise<void> {
    return retryOnConflict(`session report of call ${callId}`, async () => {
      const call = await this.deps.store.getCallById(callId);
      const changes = call && plan(call);
      if (!call || !changes) return { done: undefined };
      const updated = await this.deps.store.updateCall(callId, call.version, changes, [], [], this.deps.now().toISOString());
      return updated ? { done: undefined } : undefined;
    });
  }
}

function sequenceIssues(sequence: bigint, field: string): FieldIssue[] {
  return sequence >= 1n && sequence <= BigInt(Number.MAX_SAFE_INTEGER) ? [] : [{ field, issue: 'must be a positive integer' }];
}
