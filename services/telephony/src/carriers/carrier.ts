// The one interface every carrier adapter implements: the built-in sandbox carrier and the
// Twilio-compatible HTTP adapter. The service never knows which one it talks to.
import type { LegChange } from '../domain/call-legs.js';

/** What a connection's adapter is built from (credentials already decrypted). */
export type CarrierAccount =
  | { provider: 'sandbox'; accountSid: string; authToken: string }
  | { provider: 'twilio'; baseUrl: string; accountSid: string; authToken: string };

export interface OutboundSms {
  /** E.164 sender and destination. */
  from: string;
  to: string;
  body: string;
  /** Where the carrier posts delivery updates for this message; absent when it reports otherwise. */
  statusCallbackUrl?: string;
}

/** The carrier took the message: from here on it is charged. */
export interface AcceptedSms {
  /** The carrier's id of the message (never shown to clients). */
  carrierMessageId: string;
}

/** A message whose send was cut off before its answer was recorded, as the platform describes it. */
export interface SentSmsQuery {
  from: string;
  to: string;
  body: string;
  /** When the send started (ISO 8601): the carrier's record of it cannot be older. */
  notBefore: string;
}

/** Delivery states a carrier reports, already mapped onto the platform's message states. */
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'failed';

export interface NumberCapabilities {
  smsCapable: boolean;
  voiceCapable: boolean;
}

export interface AvailableNumber extends NumberCapabilities {
  /** E.164. */
  number: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** Where a carrier sends a number's inbound calls and their progress: the gateway's voice webhooks of the number's connection. */
export interface NumberVoiceRoute {
  voiceUrl: string;
  statusCallbackUrl: string;
}

export interface NumberSearch {
  country: string;
  areaCode?: string;
  limit: number;
}

export type ConnectionTestResult =
  | { ok: true }
  | { ok: false; failure: 'authentication_failed' | 'unreachable' | 'unexpected_response'; message: string };

export interface A2pCampaignSubmission {
  /** The platform's id of the campaign; the carrier's status callback names it. */
  id: string;
  name: string;
  useCase: string;
  description: string;
  sampleMessages: string[];
}

export type A2pVetting = { status: 'approved' | 'pending' } | { status: 'rejected'; reason: string };

/** A callback as the gateway received it. */
export interface CarrierCallback {
  url: string;
  params: Record<string, string>;
  signature: string;
}

/** An outbound call leg as a carrier is asked to dial it. */
export interface OutboundCallLeg {
  /** Telephony's id of the leg: the leg's callback URLs name it. */
  legId: string;
  /** E.164. */
  from: string;
  to: string;
  /** The carrier hangs up at this length. */
  maxDurationSeconds: number;
  /** Handed to the voice runtime with the media (Twilio Media Streams' customParameters). */
  mediaParameters: Record<string, string>;
  /** Where an HTTP carrier fetches what to do once the call is answered (TwiML connecting the media). */
  instructionsUrl: string;
  /** Where an HTTP carrier posts the leg's progress. */
  statusCallbackUrl: string;
  /** Where an HTTP carrier posts that the call's recording is ready. */
  recordingStatusCallbackUrl: string;
}

/** A call's recording as the carrier keeps it. */
export interface CarrierRecording {
  contentType: string;
  bytes: Buffer;
}

/** The carrier took the leg. */
export interface PlacedCallLeg {
  /** The carrier's id of the call (never shown to clients). */
  carrierCallId: string;
}

/** A call that only speaks (a caller ID's verification code): no media stream, no leg, no callbacks. */
export interface SpokenCall {
  /** E.164. */
  from: string;
  to: string;
  /** What the call says once answered. */
  speech: string;
  /** The platform's id of what the call is for (a caller ID); a carrier may keep it with the call (the sandbox does). */
  reference: string;
}

/** Receives a carrier's in-process reports on the legs it carries (the sandbox's); HTTP carriers post callbacks instead. */
export type CallProgressListener = (legId: string, change: LegChange) => Promise<void>;

export interface CarrierAdapter {
  /** Dials an outbound leg; its progress arrives later. Throws CarrierUnavailable or CarrierRejected. */
  placeCall(leg: OutboundCallLeg): Promise<PlacedCallLeg>;
  /** Dials a call that says `speech` and hangs up; nothing of it is reported. Throws CarrierUnavailable or CarrierRejected. */
  placeSpokenCall(call: SpokenCall): Promise<PlacedCallLeg>;
  /** Hangs a call up, answered or not; a call that already ended is left as it is. */
  endCall(carrierCallId: string): Promise<void>;
  /** Downloads a recording the carrier made of a call (WAV); throws CarrierRejected when it has none such. */
  fetchRecording(recordingSid: string): Promise<CarrierRecording>;

  /** Hands one message to the carrier; throws CarrierUnavailable or CarrierRejected. */
  sendSms(message: OutboundSms): Promise<AcceptedSms>;
  /**
   * The carrier's ids of messages it took that match the query (same sender, destination and
   * body, created since notBefore), oldest first; empty when it took none. Throws
   * CarrierUnavailable when the carrier cannot be asked.
   */
  findSentSms(query: SentSmsQuery): Promise<string[]>;
  /** Numbers for sale now (marketplace). */
  searchAvailable(search: NumberSearch): Promise<AvailableNumber[]>;
  /** Buys a number with its inbound calls sent to `voice`; throws NumberNotAvailable when it is not for sale. */
  purchaseNumber(number: string, voice: NumberVoiceRoute): Promise<NumberCapabilities>;
  /** Gives a bought number back; a number the account no longer holds is already released. */
  releaseNumber(number: string): Promise<void>;
  /**
   * What the account says about a number it holds, once a voice-capable one sends its inbound calls
   * to `voice`; undefined (and nothing changed) when it holds no such number.
   */
  importNumber(number: string, voice: NumberVoiceRoute): Promise<NumberCapabilities | undefined>;
  /** Whether the credentials work; never throws for a carrier-side failure. */
  testConnection(): Promise<ConnectionTestResult>;
  submitA2pCampaign(campaign: A2pCampaignSubmission): Promise<A2pVetting>;
  /** True when the callback carries a valid signature made with this account's credentials. */
  verifyCallback(callback: CarrierCallback): boolean;
}

/** The carrier could not be reached or failed (timeout, connection refused, 5xx, circuit open). Nothing was accepted. */
export class CarrierUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CarrierUnavailable';
  }
}

/** The carrier answered and refused the request (4xx). */
export class CarrierRejected extends Error {
  constructor(
    message: string,
    /** authentication: the credentials do not work; destination: the carrier refuses the `to` number; request: anything else. */
    readonly kind: 'authentication' | 'destination' | 'request',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CarrierRejected';
  }
}

export class NumberNotAvailable extends Error {
  constructor(readonly number: string) {
    super(`${number} is not available`);
    this.name = 'NumberNotAvailable';
  }
}
