// The built-in carrier: no network but the voice runtime's media stream. Sells a fixed inventory,
// accepts messages and reports their delivery a few milliseconds later, vets A2P campaigns at once,
// carries calls (sandbox-calls.ts), keeps what its spoken calls said where a test can read it (as a
// phone would have heard it), and has magic destinations (in the style of Twilio's test
// credentials) that make every failure path reachable.
import { randomBytes } from 'node:crypto';
import { parseE164 } from '@voice/contracts/telephony';
import {
  CarrierRejected,
  CarrierUnavailable,
  NumberNotAvailable,
  type A2pCampaignSubmission,
  type A2pVetting,
  type AcceptedSms,
  type AvailableNumber,
  type CarrierAdapter,
  type CarrierRecording,
  type CarrierCallback,
  type ConnectionTestResult,
  type DeliveryStatus,
  type NumberCapabilities,
  type NumberSearch,
  type NumberVoiceRoute,
  type OutboundCallLeg,
  type OutboundSms,
  type PlacedCallLeg,
  type SentSmsQuery,
  type SpokenCall,
} from './carrier.js';
import { dialledNumber, isAnswered, newSandboxCallId, SandboxCalls, type InboundSandboxCall, type SandboxCallOptions } from './sandbox-calls.js';
import { isSandboxOffer, sandboxOffers } from './sandbox-inventory.js';
import { verifyTwilioSignature } from './twilio-signature.js';

export interface DeliveryReport {
  status: DeliveryStatus;
  failureReason?: string;
}

/** Receives the sandbox's delivery reports; it handles its own failures (it is called from a timer). */
export type DeliveryListener = (carrierMessageId: string, report: DeliveryReport) => void;

export interface SandboxCarrierOptions extends SandboxCallOptions {
  onDelivery: DeliveryListener;
  /** From acceptance to the 'sent' report; default 5 ms. */
  sentAfterMs?: number;
  /** From 'sent' to the final report ('delivered' or 'failed'); default 5 ms. */
  finalAfterMs?: number;
}

/** A spoken call the destination answered, as the sandbox remembers it. */
export interface HeardCall extends SpokenCall {
  carrierCallId: string;
  /** When it was answered (ISO 8601). */
  answeredAt: string;
}

export interface SandboxAccount {
  accountSid: string;
  authToken: string;
}

/** Destinations that behave differently, like Twilio's magic test numbers. */
export const sandboxDestinations = {
  invalid: '+15005550001',
  blocked: '+15005550004',
  undeliverable: '+15005550009',
} as const;

/** How many accepted messages the sandbox remembers for findSentSms (it forgets everything when the process ends). */
const rememberedMessages = 10_000;

const undeliverableReason = 'destination cannot receive SMS';
const minimumDescriptionLength = 40;
const everything: NumberCapabilities = { smsCapable: true, voiceCapable: true };

export class SandboxCarrier implements CarrierAdapter {
  private readonly pendingReports = new Set<NodeJS.Timeout>();
  /** Accepted messages by carrier id, oldest first. */
  private readonly accepted = new Map<string, OutboundSms & { acceptedAtMs: number }>();
  private readonly calls: SandboxCalls;
  /** Answered spoken calls by their reference, oldest first; a later call for a reference replaces the earlier. */
  private readonly heard = new Map<string, HeardCall>();
  private closed = false;

  constructor(
    private readonly account: SandboxAccount,
    private readonly options: SandboxCarrierOptions,
  ) {
    this.calls = new SandboxCalls(account.accountSid, options);
  }

  placeCall(leg: OutboundCallLeg): Promise<PlacedCallLeg> {
    return this.calls.place(leg);
  }

  endCall(carrierCallId: string): Promise<void> {
    return this.calls.end(carrierCallId);
  }

  /** Takes a simulated call to one of its numbers, already handed to the calls service (the sandbox test surface's inbound call). */
  receiveCall(inbound: InboundSandboxCall): void {
    this.calls.receive(inbound);
  }

  /** Answered at once, unless the destination is one that is busy, does not answer or fails: then nothing is heard. */
  async placeSpokenCall(call: SpokenCall): Promise<PlacedCallLeg> {
    if (this.closed) throw new CarrierUnavailable('the sandbox carrier is closed');
    const to = dialledNumber(call.from, call.to);
    const carrierCallId = newSandboxCallId();
    if (isAnswered(to)) {
      this.heard.delete(call.reference);
      this.heard.set(call.reference, { ...call, to, carrierCallId, answeredAt: (this.options.now?.() ?? new Date()).toISOString() });
      if (this.heard.size > rememberedMessages) this.heard.delete(this.heard.keys().next().value!);
    }
    return { carrierCallId };
  }

  /** The last answered spoken call made for `reference`, while the sandbox remembers it. */
  heardCall(reference: string): HeardCall | undefined {
    return this.heard.get(reference);
  }

  /** The sandbox records nothing itself: the voice runtime uploads its own recording. */
  async fetchRecording(_recordingSid: string): Promise<CarrierRecording> {
    throw new CarrierRejected('the sandbox carrier keeps no recordings', 'request');
  }

  async sendSms(message: OutboundSms): Promise<AcceptedSms> {
    if (this.closed) throw new CarrierUnavailable('the sandbox carrier is closed');
    if (!parseE164(message.from)) throw new CarrierRejected('the sender is not a valid phone number', 'request');
    const to = parseE164(message.to)?.number;
    if (to === undefined || to === sandboxDestinations.invalid) throw new CarrierRejected('the destination is not a valid phone number', 'destination');
    if (to === sandboxDestinations.blocked) throw new CarrierRejected('the destination is blocked', 'destination');

    const carrierMessageId = `SM${randomBytes(16).toString('hex')}`;
    this.remember(carrierMessageId, message);
    const final: DeliveryReport = to === sandboxDestinations.undeliverable ? { status: 'failed', failureReason: undeliverableReason } : { status: 'delivered' };
    this.later(this.options.sentAfterMs ?? 5, () => {
      this.options.onDelivery(carrierMessageId, { status: 'sent' });
      this.later(this.options.finalAfterMs ?? 5, () => this.options.onDelivery(carrierMessageId, final));
    });
    return { carrierMessageId };
  }

  async findSentSms(query: SentSmsQuery): Promise<string[]> {
    const notBeforeMs = Date.parse(query.notBefore);
    return [...this.accepted]
      .filter(([, sent]) => sent.from === query.from && sent.to === query.to && sent.body === query.body && sent.acceptedAtMs >= notBeforeMs)
      .map(([carrierMessageId]) => carrierMessageId);
  }

  async searchAvailable(search: NumberSearch): Promise<AvailableNumber[]> {
    const country = search.country.toUpperCase();
    return sandboxOffers(country, search.areaCode)
      .slice(0, Math.max(search.limit, 0))
      .map((number) => ({ number, country, ...everything }));
  }

  /** The sandbox rings its numbers' calls itself (a simulated inbound call): it needs no voice URL. */
  async purchaseNumber(number: string, _voice: NumberVoiceRoute): Promise<NumberCapabilities> {
    if (!isSandboxOffer(number)) throw new NumberNotAvailable(number);
    return everything;
  }

  /** Sandbox numbers are not really held anywhere, so there is nothing to give back. */
  async releaseNumber(_number: string): Promise<void> {}

  /** Every valid number counts as held by the sandbox account, so any can be imported. */
  async importNumber(number: string, _voice: NumberVoiceRoute): Promise<NumberCapabilities | undefined> {
    return parseE164(number) ? everything : undefined;
  }

  async testConnection(): Promise<ConnectionTestResult> {
    return this.account.authToken.trim() === ''
      ? { ok: false, failure: 'authentication_failed', message: 'the auth token is empty' }
      : { ok: true };
  }

  async submitA2pCampaign(campaign: A2pCampaignSubmission): Promise<A2pVetting> {
    const problems: string[] = [];
    if ([...campaign.description.trim()].length < minimumDescriptionLength) {
      problems.push(`the description must have at least ${minimumDescriptionLength} characters`);
    }
    if (!campaign.sampleMessages.some((sample) => sample.trim() !== '')) problems.push('at least one sample message is required');
    return problems.length === 0 ? { status: 'approved' } : { status: 'rejected', reason: problems.join('; ') };
  }

  verifyCallback(callback: CarrierCallback): boolean {
    return verifyTwilioSignature(this.account.authToken, callback);
  }

  /** Cancels the delivery reports not yet made and hangs up its calls; messages and calls afterwards are refused. */
  close(): void {
    this.closed = true;
    this.calls.close();
    for (const timer of this.pendingReports) clearTimeout(timer);
    this.pendingReports.clear();
  }

  private remember(carrierMessageId: string, message: OutboundSms): void {
    this.accepted.set(carrierMessageId, { ...message, acceptedAtMs: Date.now() });
    if (this.accepted.size > rememberedMessages) this.accepted.delete(this.accepted.keys().next().value!);
  }

  private later(delayMs: number, report: () => void): void {
    const timer = setTimeout(() => {
      this.pendingReports.delete(timer);
      report();
    }, delayMs);
    timer.unref();
    this.pendingReports.add(timer);
  }
}
