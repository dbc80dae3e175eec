// One call's session at the calls service, as the runtime reports it: every request names the call
// and its session token, transcript turns, tool calls and events share one increasing sequence, and
// each request carries a freshly signed internal caller (signatures age out after two minutes,
// calls can last hours).
import { create, toJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { timestampNow, ValueSchema } from '@bufbuild/protobuf/wkt';
import type { Client } from '@connectrpc/connect';
import type { CallSessionService, StartSessionResponse, SessionRef } from '@voice/proto/voice/calls/v1/call_sessions';
import { SessionRefSchema } from '@voice/proto/voice/calls/v1/call_sessions';
import { recordingUploadMessages } from '@voice/runtime/call-recordings';

export type SessionClient = Client<typeof CallSessionService>;

/** What a request to the calls service carries besides its message (the signed caller). */
export type CallOptions = () => { headers: Record<string, string> };

export type ToolAnswer = { ok: true; result: JsonValue } | { ok: false; error: string };

export class SessionReports {
  private readonly ref: SessionRef;
  private sequence = 0;

  constructor(
    private readonly client: SessionClient,
    ref: { callId: string; sessionToken: string },
    private readonly options: CallOptions,
  ) {
    this.ref = create(SessionRefSchema, ref);
  }

  start(): Promise<StartSessionResponse> {
    return this.client.startSession({ session: this.ref }, this.options());
  }

  async transcript(role: 'assistant' | 'user', text: string): Promise<void> {
    await this.client.appendTranscript({ session: this.ref, sequence: this.next(), role, text, at: timestampNow() }, this.options());
  }

  async event(type: string, data: JsonObject): Promise<void> {
    await this.client.reportEvents({ session: this.ref, events: [{ sequence: this.next(), type, at: timestampNow(), data }] }, this.options());
  }

  async invokeTool(name: string, args: JsonObject): Promise<ToolAnswer> {
    const answer = await this.client.invokeTool({ session: this.ref, sequence: this.next(), name, arguments: args }, this.options());
    if (!answer.ok) return { ok: false, error: answer.error };
    return { ok: true, result: answer.result ? toJson(ValueSchema, answer.result) : null };
  }

  async analysis(analysis: { summary: string; verdict: string; extractedFields: JsonObject }): Promise<void> {
    await this.client.reportAnalysis({ session: this.ref, ...analysis }, this.options());
  }

  /** Sends the WAV's parts as they come. */
  async uploadRecording(wav: Iterable<Uint8Array>): Promise<bigint> {
    return (await this.client.uploadRecording(recordingUploadMessages(this.ref, 'audio/wav', wav), this.options())).sizeBytes;
  }

  async end(reason: string): Promise<void> {
    await this.client.endSession({ session: this.ref, reason, at: timestampNow() }, this.options());
  }

  private next(): bigint {
    this.sequence += 1;
    return BigInt(this.sequence);
  }
}
