// The sandbox carrier's voice calls: a dialled leg rings, then, by magic destination numbers (in the
// style of Twilio's test numbers), is busy, not answered or failed, or is answered and its media
// streamed to the voice runtime (media-stream.ts) until the runtime or the platform hangs up or the
// leg's time limit is reached. A simulated call to one of its numbers is picked up the same way. Each call lives in the process that placed it: its moves are timed
// on this process's clock and reported through the listener in order, so no other replica can
// report them twice.
import { randomBytes } from 'node:crypto';
import { parseE164 } from '@voice/contracts/telephony';
import type { Logger } from '@voice/runtime/logger';
import { answeredSeconds, type LegChange } from '../domain/call-legs.js';
import { CarrierRejected, CarrierUnavailable, type CallProgressListener, type OutboundCallLeg, type PlacedCallLeg } from './carrier.js';
import { MediaStream, type MediaStreamEnd } from './media-stream.js';

/** Destinations whose calls end without an answer. */
export const sandboxCallDestinations = {
  busy: '+15005550006',
  noAnswer: '+15005550007',
  failed: '+15005550008',
} as const;

/**
 * A destination a voicemail box answers: the call is answered and its media streamed, telling the runtime
 * `answered_by` `machine_start` (the answering-machine detection Twilio reports as AnsweredBy).
 */
export const sandboxVoicemailDestination = '+15005550010';

/** The media parameter naming who answered, when a machine did. */
export const answeredByParameter = 'answered_by';

/** Destinations the sandbox refuses to dial at all (as it refuses them SMS). */
export const sandboxRefusedDestinations = {
  invalid: '+15005550001',
  blocked: '+15005550004',
} as const;

/** The destination of a call the sandbox dials (E.164); throws CarrierRejected for what it refuses to dial. */
export function dialledNumber(from: string, to: string): string {
  if (!parseE164(from)) throw new CarrierRejected('the caller is not a valid phone number', 'request');
  const number = parseE164(to)?.number;
  if (number === undefined || number === sandboxRefusedDestinations.invalid) throw new CarrierRejected('the destination is not a valid phone number', 'destination');
  if (number === sandboxRefusedDestinations.blocked) throw new CarrierRejected('the destination is blocked', 'destination');
  return number;
}

/** Whether a call to the (dialable) destination is answered, by the magic destinations above. */
export const isAnswered = (to: string): boolean => !(Object.values(sandboxCallDestinations) as string[]).includes(to);

export const newSandboxCallId = (): string => `CA${randomBytes(16).toString('hex')}`;

/** A simulated call to a number the sandbox carries, ringing, its leg stored and its call taken by the calls service. */
export interface InboundSandboxCall {
  legId: string;
  /** From newSandboxCallId, stored with the leg before the call is received. */
  carrierCallId: string;
  maxDurationSeconds: number;
  /** Handed to the voice runtime with the media. */
  mediaParameters: Record<string, string>;
}

export interface SandboxCallOptions {
  onCallProgress: CallProgressListener;
  /** The voice runtime's stream endpoint (VOICE_MEDIA_URL); answered calls fail without one. */
  mediaUrl?: string;
  /** From the dial to 'ringing'; default 10 ms. */
  ringAfterMs?: number;
  /** From 'ringing' to the answer (or busy, no answer, failed); default 20 ms. */
  answerAfterMs?: number;
  now?: () => Date;
  logger?: Logger;
}

interface SandboxCall {
  legId: string;
  /** The time limit also caps the answered seconds reported (its timer fires a little late). */
  maxDurationSeconds: number;
  timers: Set<NodeJS.Timeout>;
  answeredAtMs?: number;
  media?: MediaStream;
  ended: boolean;
  /** Reports of the call, one after the other. */
  reports: Promise<void>;
}

const failedReason = 'the destination could not be reached';
const noRuntimeReason = "the call's media could not be connected to the voice runtime";

export class SandboxCalls {
  private readonly calls = new Map<string, SandboxCall>();
  private closed = false;

  constructor(
    private readonly accountSid: string,
    private readonly options: SandboxCallOptions,
  ) {}

  async place(leg: OutboundCallLeg): Promise<PlacedCallLeg> {
    if (this.closed) throw new CarrierUnavailable('the sandbox carrier is closed');
    const to = dialledNumber(leg.from, leg.to);
    const carrierCallId = newSandboxCallId();
    const call: SandboxCall = { legId: leg.legId, maxDurationSeconds: leg.maxDurationSeconds, timers: new Set(), ended: false, reports: Promise.resolve() };
    this.calls.set(carrierCallId, call);
    this.after(call, this.options.ringAfterMs ?? 10, () => {
      this.report(call, { status: 'ringing', at: this.nowIso() });
      this.after(call, this.options.answerAfterMs ?? 20, () => this.pickUp(carrierCallId, call, leg, to));
    });
    return { carrierCallId };
  }

  /** Picks up a call to one of the sandbox's numbers (it is ringing) after the usual delay; then it runs as an answered outbound call does. */
  receive(inbound: InboundSandboxCall): void {
    if (this.closed) throw new CarrierUnavailable('the sandbox carrier is closed');
    const call: SandboxCall = { legId: inbound.legId, maxDurationSeconds: inbound.maxDurationSeconds, timers: new Set(), ended: false, reports: Promise.resolve() };
    this.calls.set(inbound.carrierCallId, call);
    this.after(call, this.options.answerAfterMs ?? 20, () => this.connect(inbound.carrierCallId, call, inbound.mediaParameters));
  }

  async end(carrierCallId: string): Promise<void> {
    const call = this.calls.get(carrierCallId);
    if (!call || call.ended) return;
    if (call.media) call.media.stop();
    else this.finish(carrierCallId, call, call.answeredAtMs === undefined ? { status: 'canceled' } : { status: 'completed' });
  }

  /** Cancels what is pending and hangs up every call in progress, reporting nothing more. */
  close(): void {
    this.closed = true;
    for (const [carrierCallId, call] of this.calls) {
      call.ended = true;
      for (const timer of call.timers) clearTimeout(timer);
      call.media?.stop();
      this.calls.delete(carrierCallId);
    }
  }

  private pickUp(carrierCallId: string, call: SandboxCall, leg: OutboundCallLeg, to: string): void {
    if (to === sandboxCallDestinations.busy) return this.finish(carrierCallId, call, { status: 'busy' });
    if (to === sandboxCallDestinations.noAnswer) return this.finish(carrierCallId, call, { status: 'no_answer' });
    if (to === sandboxCallDestinations.failed) return this.finish(carrierCallId, call, { status: 'failed', failureReason: failedReason });

    const answeredBy: Record<string, string> = to === sandboxVoicemailDestination ? { [answeredByParameter]: 'machine_start' } : {};
    this.connect(carrierCallId, call, { ...leg.mediaParameters, ...answeredBy });
  }

  /** The call is answered: in progress until its media ends or its time limit. */
  private connect(carrierCallId: string, call: SandboxCall, mediaParameters: Record<string, string>): void {
    call.answeredAtMs = this.now().getTime();
    this.report(call, { status: 'in_progress', at: this.nowIso() });
    this.after(call, call.maxDurationSeconds * 1000, () => void this.end(carrierCallId));
    const mediaUrl = this.options.mediaUrl;
    if (!mediaUrl) return this.finish(carrierCallId, call, { status: 'failed', failureReason: noRuntimeReason });
    call.media = new MediaStream({
      url: mediaUrl,
      accountSid: this.accountSid,
      callSid: carrierCallId,
      customParameters: mediaParameters,
      onEnd: (end) => this.mediaEnded(carrierCallId, call, end),
    });
  }

  private mediaEnded(carrierCallId: string, call: SandboxCall, end: MediaStreamEnd): void {
    if (end.by === 'failure') {
      this.options.logger?.warn("the sandbox carrier's media stream failed", { error: end.error });
      return this.finish(carrierCallId, call, { status: 'failed', failureReason: noRuntimeReason });
    }
    this.finish(carrierCallId, call, { status: 'completed' });
  }

  private finish(carrierCallId: string, call: SandboxCall, change: Omit<LegChange, 'at'>): void {
    if (call.ended) return;
    call.ended = true;
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
    this.calls.delete(carrierCallId);
    const endedAt = this.now();
    this.report(call, { ...change, at: endedAt.toISOString(), durationSeconds: Math.min(call.maxDurationSeconds, answeredSeconds(call.answeredAtMs, endedAt.getTime())) });
  }

  private report(call: SandboxCall, change: LegChange): void {
    call.reports = call.reports
      .then(() => this.options.onCallProgress(call.legId, change))
      .catch((error: unknown) => this.options.logger?.error('a sandbox call report was not recorded', { error }));
  }

  private after(call: SandboxCall, delayMs: number, step: () => void): void {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      if (!call.ended) step();
    }, delayMs);
    timer.unref();
    call.timers.add(timer);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private nowIso(): string {
    return this.now().toISOString();
  }
}
