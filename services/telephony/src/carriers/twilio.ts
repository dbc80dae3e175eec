// The carrier port spoken to a Twilio-compatible REST API (Twilio itself, or anything answering in
// its shape at the connection's base URL).
import { z } from 'zod';
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
  type CarrierCallback,
  type CarrierRecording,
  type ConnectionTestResult,
  type NumberCapabilities,
  type NumberSearch,
  type NumberVoiceRoute,
  type OutboundCallLeg,
  type OutboundSms,
  type PlacedCallLeg,
  type SentSmsQuery,
  type SpokenCall,
} from './carrier.js';
import { sayTwiml } from '../call-legs/twiml.js';
import type { CircuitBreakers } from './resilience/circuit-breaker.js';
import { TwilioClient, type TwilioAccount, type TwilioAnswer, type TwilioRequest } from './twilio-client.js';
import { isNotForSale, isSuccess, rejectionOf } from './twilio-errors.js';
import { verifyTwilioSignature } from './twilio-signature.js';

import type { Logger } from '@voice/runtime/logger';
export { twilioSignature } from './twilio-signature.js';
export type { TwilioAccount } from './twilio-client.js';

export interface TwilioCarrierOptions {
  /** The circuit breakers of the process; adapters of the same account (base URL + account SID) share one. */
  breakers: CircuitBreakers;
  /** Let requests reach private and loopback addresses; default false. */
  allowPrivate?: boolean;
  /** Per attempt; default 10 000 ms. */
  timeoutMs?: number;
  /** Retries after a failed attempt where retrying is safe; default 2. */
  retries?: number;
  /** First backoff, doubled for each further retry (with jitter); default 200 ms. */
  retryBaseDelayMs?: number;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Where the detail of a failed request goes (callers see only its reason). */
  logger?: Logger;
}

// Twilio spells the SMS capability "SMS" in available-number listings and "sms" elsewhere.
const capabilitiesSchema = z.object({ voice: z.boolean().optional(), sms: z.boolean().optional(), SMS: z.boolean().optional() });
type TwilioCapabilities = z.infer<typeof capabilitiesSchema>;

const messageSchema = z.object({ sid: z.string().min(1) });
const callSchema = z.object({ sid: z.string().min(1) });
/** A spoken call says its text twice in well under this; the carrier hangs up at it whatever happens. */
const spokenCallSeconds = 120;
/** Four hours of 8 kHz 16-bit mono WAV (Twilio's longest call) with room to spare. */
const maxRecordingBytes = 256 * 1024 * 1024;
const wavTypes = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave']);
/** The progress events a placed call reports to its StatusCallback. */
const callProgressEvents = ['initiated', 'ringing', 'answered', 'completed'];
const messageListSchema = z.object({
  messages: z.array(z.object({ sid: z.string().min(1), body: z.string().nullish(), date_created: z.string().nullish() })),
  next_page_uri: z.string().nullish(),
});

const defaultTimeoutMs = 10_000;
const defaultRetries = 2;
const defaultRetryBaseDelayMs = 200;

/** The longest one send can take with the default retries: every attempt timing out after the longest back-offs. */
export function longestSendMs(timeoutMs: number): number {
  let backoffs = 0;
  for (let retry = 0; retry < defaultRetries; retry++) backoffs += defaultRetryBaseDelayMs * 2 ** retry;
  return (defaultRetries + 1) * timeoutMs + backoffs;
}

/** Clocks of carrier and platform may disagree; a record this much older than the send still counts. */
const clockSkewMs = 5 * 60_000;
/** Pages of the sender/destination pair read while looking for an interrupted send (newest first). */
const maxSearchPages = 5;
const availableListSchema = z.object({
  available_phone_numbers: z.array(z.object({ phone_number: z.string(), capabilities: capabilitiesSchema })),
});
const incomingNumberSchema = z.object({ sid: z.string().min(1), phone_number: z.string(), capabilities: capabilitiesSchema });
const incomingListSchema = z.object({ incoming_phone_numbers: z.array(incomingNumberSchema) });
const accountSchema = z.object({ sid: z.string() });

const capabilitiesOf = (capabilities: TwilioCapabilities): NumberCapabilities => ({
  smsCapable: capabilities.sms ?? capabilities.SMS ?? false,
  voiceCapable: capabilities.voice ?? false,
});

/** A number's voice settings: its calls and their progress go to the platform's webhooks. */
const voiceForm = (voice: NumberVoiceRoute): Record<string, string> => ({
  VoiceUrl: voice.voiceUrl,
  VoiceMethod: 'POST',
  StatusCallback: voice.statusCallbackUrl,
  StatusCallbackMethod: 'POST',
});

export class TwilioCompatibleCarrier implements CarrierAdapter {
  private readonly client: TwilioClient;

  constructor(
    private readonly account: TwilioAccount,
    options: TwilioCarrierOptions,
  ) {
    this.client = new TwilioClient(account, {
      breakers: options.breakers,
      allowPrivate: options.allowPrivate ?? false,
      logger: options.logger,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      retry: { retries: options.retries ?? defaultRetries, baseDelayMs: options.retryBaseDelayMs ?? defaultRetryBaseDelayMs, random: options.random },
    });
  }

  async sendSms(message: OutboundSms): Promise<AcceptedSms> {
    const answer = await this.client.send({
      method: 'POST',
      resource: '/Messages.json',
      form: { From: message.from, To: message.to, Body: message.body, StatusCallback: message.statusCallbackUrl },
    });
    return { carrierMessageId: this.read(answer, messageSchema).sid };
  }

  async placeCall(leg: OutboundCallLeg): Promise<PlacedCallLeg> {
    const answer = await this.client.send({
      method: 'POST',
      resource: '/Calls.json',
      form: {
        From: leg.from,
        To: leg.to,
        Url: leg.instructionsUrl,
        Method: 'POST',
        StatusCallback: leg.statusCallbackUrl,
        StatusCallbackMethod: 'POST',
        StatusCallbackEvent: callProgressEvents,
        TimeLimit: String(leg.maxDurationSeconds),
        // The carrier records the call too; its recording is fetched once ready and handed to the calls service.
        Record: 'true',
        RecordingChannels: 'mono',
        RecordingStatusCallback: leg.recordingStatusCallbackUrl,
        RecordingStatusCallbackMethod: 'POST',
        RecordingStatusCallbackEvent: 'completed',
      },
    });
    return { carrierCallId: this.read(answer, callSchema).sid };
  }

  /** The TwiML rides along (Twiml instead of Url): the carrier needs nothing from the platform once it dials. */
  async placeSpokenCall(call: SpokenCall): Promise<PlacedCallLeg> {
    const answer = await this.client.send({
      method: 'POST',
      resource: '/Calls.json',
      form: { From: call.from, To: call.to, Twiml: sayTwiml(call.speech), TimeLimit: String(spokenCallSeconds) },
    });
    return { carrierCallId: this.read(answer, callSchema).sid };
  }

  /** `completed` hangs a call up in any state (`canceled` would leave a call answered meanwhile running). */
  async endCall(carrierCallId: string): Promise<void> {
    const answer = await this.client.send({ method: 'POST', resource: `/Calls/${encodeURIComponent(carrierCallId)}.json`, form: { Status: 'completed' } });
    // A call the carrier no longer knows has ended.
    if (answer.status === 404) return;
    this.read(answer, callSchema);
  }

  async fetchRecording(recordingSid: string): Promise<CarrierRecording> {
    const answer = await this.client.send({ method: 'GET', resource: `/Recordings/${encodeURIComponent(recordingSid)}.wav`, file: { maxBytes: maxRecordingBytes } });
    if (!isSuccess(answer)) throw rejectionOf(answer, (text) => this.client.redact(text));
    const file = answer.file!;
    if (file.truncated) throw new CarrierRejected(`the recording is larger than ${maxRecordingBytes} bytes`, 'request');
    const contentType = file.contentType.split(';')[0]!.trim().toLowerCase();
    // Twilio names WAV audio/x-wav; the platform keeps recordings as audio/wav.
    return { contentType: wavTypes.has(contentType) ? 'audio/wav' : contentType, bytes: file.bytes };
  }

  async findSentSms(query: SentSmsQuery): Promise<string[]> {
    const oldestMs = Date.parse(query.notBefore) - clockSkewMs;
    const found: string[] = [];
    let page: Record<string, string | undefined> = { From: query.from, To: query.to, PageSize: '100' };
    for (let read = 0; read < maxSearchPages; read++) {
      const answer = await this.client.send({ method: 'GET', resource: '/Messages.json', query: page });
      const { messages, next_page_uri: next } = this.read(answer, messageListSchema);
      let reachedOlder = false;
      for (const message of messages) {
        const createdMs = Date.parse(message.date_created ?? '');
        if (createdMs < oldestMs) reachedOlder = true;
        else if (message.body === query.body) found.push(message.sid);
      }
      if (reachedOlder || !next) break;
      page = Object.fromEntries(new URL(next, 'http://carrier').searchParams);
    }
    // The carrier lists newest first.
    return found.reverse();
  }

  async searchAvailable(search: NumberSearch): Promise<AvailableNumber[]> {
    const country = search.country.toUpperCase();
    const answer = await this.client.send({
      method: 'GET',
      resource: `/AvailablePhoneNumbers/${encodeURIComponent(country)}/Local.json`,
      query: { AreaCode: search.areaCode, PageSize: String(search.limit) },
    });
    // The carrier answers 404 for a country it sells no numbers in.
    if (answer.status === 404) return [];
    const offers: AvailableNumber[] = [];
    for (const offer of this.read(answer, availableListSchema).available_phone_numbers) {
      // A number the platform cannot validate could be neither bought nor used here.
      const parsed = parseE164(offer.phone_number);
      if (parsed) offers.push({ number: parsed.number, country: parsed.country, ...capabilitiesOf(offer.capabilities) });
    }
    return offers.slice(0, search.limit);
  }

  async purchaseNumber(number: string, voice: NumberVoiceRoute): Promise<NumberCapabilities> {
    const answer = await this.client.send({ method: 'POST', resource: '/IncomingPhoneNumbers.json', form: { PhoneNumber: number, ...voiceForm(voice) } });
    if (!isSuccess(answer) && isNotForSale(answer)) throw new NumberNotAvailable(number);
    return capabilitiesOf(this.read(answer, incomingNumberSchema).capabilities);
  }

  async releaseNumber(number: string): Promise<void> {
    const held = await this.findHeld(number);
    if (!held) return;
    const answer = await this.client.send({ method: 'DELETE', resource: `/IncomingPhoneNumbers/${encodeURIComponent(held.sid)}.json` });
    // Released meanwhile: what was asked for is done.
    if (answer.status === 404) return;
    if (!isSuccess(answer)) throw rejectionOf(answer, (text) => this.client.redact(text));
  }

  async importNumber(number: string, voice: NumberVoiceRoute): Promise<NumberCapabilities | undefined> {
    const held = await this.findHeld(number);
    if (!held) return undefined;
    const capabilities = capabilitiesOf(held.capabilities);
    if (capabilities.voiceCapable) {
      this.read(await this.client.send({ method: 'POST', resource: `/IncomingPhoneNumbers/${encodeURIComponent(held.sid)}.json`, form: voiceForm(voice) }), incomingNumberSchema);
    }
    return capabilities;
  }

  async testConnection(): Promise<ConnectionTestResult> {
    let answer: TwilioAnswer;
    try {
      answer = await this.client.send({ method: 'GET', resource: '.json' });
    } catch (error) {
      if (error instanceof CarrierUnavailable) return { ok: false, failure: 'unreachable', message: error.message };
      throw error;
    }
    if (answer.status === 401 || answer.status === 403) {
      return { ok: false, failure: 'authentication_failed', message: `the carrier did not accept the account SID and auth token (status ${answer.status})` };
    }
    if (isSuccess(answer) && accountSchema.safeParse(answer.json).success) return { ok: true };
    return { ok: false, failure: 'unexpected_response', message: `the carrier's answer is not that of a Twilio-compatible API (status ${answer.status})` };
  }

  /** Twilio-compatible carriers vet campaigns out of band; their verdict arrives later as a signed callback. */
  async submitA2pCampaign(_campaign: A2pCampaignSubmission): Promise<A2pVetting> {
    return { status: 'pending' };
  }

  verifyCallback(callback: CarrierCallback): boolean {
    return verifyTwilioSignature(this.account.authToken, callback);
  }

  /** The account's number record, matched exactly (the carrier's PhoneNumber filter also matches partial numbers). */
  private async findHeld(number: string): Promise<z.infer<typeof incomingNumberSchema> | undefined> {
    const request: TwilioRequest = { method: 'GET', resource: '/IncomingPhoneNumbers.json', query: { PhoneNumber: number } };
    const { incoming_phone_numbers: held } = this.read(await this.client.send(request), incomingListSchema);
    return held.find((entry) => entry.phone_number === number);
  }

  /** The successful answer's body in the expected shape; otherwise the rejection the answer stands for. */
  private read<T>(answer: TwilioAnswer, schema: z.ZodType<T>): T {
    if (!isSuccess(answer)) throw rejectionOf(answer, (text) => this.client.redact(text));
    const parsed = schema.safeParse(answer.json);
    if (!parsed.success) throw new CarrierUnavailable(`the carrier's answer (status ${answer.status}) does not have the expected shape`);
    return parsed.data;
  }
}
