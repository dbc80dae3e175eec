// The calls service's CallSessionService as a test double on a real Connect server on loopback
// (signed callers checked as every service checks them): answers StartSession with the session the
// test sets, and records every report.
import { randomBytes } from 'node:crypto';
import { create, type JsonObject, type MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { CallerSigner, internalCallerOf } from '@voice/runtime/caller';
import { createLogger } from '@voice/runtime/logger';
import { startConnectServer, type RunningServer } from '@voice/runtime/server';
import {
  CallSessionService,
  InvokeToolResponseSchema,
  StartSessionResponseSchema,
  type AppendTranscriptRequest,
  type EndSessionRequest,
  type InvokeToolRequest,
  type ReportAnalysisRequest,
  type SessionEvent,
  type SessionRef,
  type UploadRecordingRequest,
} from '@voice/proto/voice/calls/v1/call_sessions';
import { fromJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';

export interface RecordedCall {
  started: number;
  transcript: AppendTranscriptRequest[];
  events: SessionEvent[];
  tools: InvokeToolRequest[];
  analyses: ReportAnalysisRequest[];
  recordings: { contentType: string; chunks: Uint8Array[]; sessions: (SessionRef | undefined)[] }[];
  ended?: EndSessionRequest;
  /** Every kind of report in arrival order. */
  order: string[];
}

export interface CallsDouble {
  url: string;
  secret: Buffer;
  /** What StartSession answers for a call id (undefined: NotFound). */
  sessions: Map<string, { token: string; response: Omit<MessageInitShape<typeof StartSessionResponseSchema>, '$typeName'> }>;
  /** What InvokeTool answers. */
  toolAnswer: (request: InvokeToolRequest) => { ok: true; result: unknown } | { ok: false; error: string };
  calls: Map<string, RecordedCall>;
  callers: string[];
  close(): Promise<void>;
}

export async function startCallsDouble(): Promise<CallsDouble> {
  const secret = randomBytes(32);
  const double: CallsDouble = {
    url: '',
    secret,
    sessions: new Map(),
    toolAnswer: () => ({ ok: false, error: 'no such tool' }),
    calls: new Map(),
    callers: [],
    close: async () => undefined,
  };
  const recordOf = (session: SessionRef | undefined, context: HandlerContext): RecordedCall => {
    double.callers.push(internalCallerOf(context).principal.id);
    const known = session && double.sessions.get(session.callId);
    if (!known || known.token !== session.sessionToken) throw new ConnectError('unknown session', Code.NotFound);
    let record = double.calls.get(session.callId);
    if (!record) {
      record = { started: 0, transcript: [], events: [], tools: [], analyses: [], recordings: [], order: [] };
      double.calls.set(session.callId, record);
    }
    return record;
  };
  let server: RunningServer | undefined = await startConnectServer({
    name: 'calls-double',
    host: '127.0.0.1',
    port: 0,
    signer: new CallerSigner(secret),
    logger: createLogger({ service: 'calls-double', level: 'silent' }),
    serviceNames: [CallSessionService.typeName],
    connectionAge: 'off',
    routes: (router) =>
      router.service(CallSessionService, {
        startSession(request, context) {
          const record = recordOf(request.session, context);
          record.started += 1;
          record.order.push('start');
          return create(StartSessionResponseSchema, {
            assistantId: 'assistant-1',
            assistantVersion: 1,
            maxDurationSeconds: 600,
            direction: 'outbound',
            ...double.sessions.get(request.session!.callId)!.response,
          });
        },
        reportEvents(request, context) {
          const record = recordOf(request.session, context);
          record.events.push(...request.events);
          record.order.push(...request.events.map((event) => `event:${event.type}`));
          return {};
        },
        appendTranscript(request, context) {
          const record = recordOf(request.session, context);
          record.transcript.push(request);
          record.order.push(`transcript:${request.role}`);
          return {};
        },
        invokeTool(request, context) {
          const record = recordOf(request.session, context);
          record.tools.push(request);
          record.order.push(`tool:${request.name}`);
          const answer = double.toolAnswer(request);
          return answer.ok
            ? create(InvokeToolResponseSchema, { ok: true, result: fromJson(ValueSchema, answer.result as JsonObject) })
            : create(InvokeToolResponseSchema, { ok: false, error: answer.error });
        },
        async uploadRecording(requests: AsyncIterable<UploadRecordingRequest>, context) {
          const chunks: Uint8Array[] = [];
          const sessions: (SessionRef | undefined)[] = [];
          let contentType = '';
          let record: RecordedCall | undefined;
          for await (const request of requests) {
            record ??= recordOf(request.session, context);
            sessions.push(request.session);
            contentType ||= request.contentType;
            chunks.push(request.chunk);
          }
          record!.recordings.push({ contentType, chunks, sessions });
          record!.order.push('recording');
          return { sizeBytes: BigInt(chunks.reduce((total, chunk) => total + chunk.length, 0)) };
        },
        reportAnalysis(request, context) {
          const record = recordOf(request.session, context);
          record.analyses.push(request);
          record.order.push('analysis');
          return {};
        },
        endSession(request, context) {
          const record = recordOf(request.session, context);
          record.ended = request;
          record.order.push(`end:${request.reason}`);
          return {};
        },
      }),
  });
  double.url = server.url;
  double.close = async () => {
    await server?.close();
    server = undefined;
  };
  return double;
}
