// What the telephony handlers need; main.ts builds it once. Each area names the parts of the
// store it uses, so `Store` is the narrowest that serves it.
import type { SecretBox } from '@voice/runtime/crypto';
import type { AssistantLookup } from '@voice/runtime/internal';
import type { Logger } from '@voice/runtime/logger';
import type { CallsPeer } from './call-legs/calls-peer.js';
import type { CarrierDirectory } from './carriers/directory.js';
import type { BillingHolds } from './billing/holds.js';
import type { NumberTerms } from './presenter.js';
import type { SmsPricing } from './domain/pricing.js';
import type { SipTrunkDeps } from './sip/sip-trunks.js';
import type { VerificationCodes } from './caller-ids/verification-code.js';
import type { CodeSendLimits } from './caller-ids/code-send-limits.js';
import type { TelephonyStore } from './store/store.js';

export interface TelephonyDeps<Store = TelephonyStore> {
  store: Store;
  /** Seals carrier credentials at rest. */
  box: SecretBox;
  carriers: CarrierDirectory;
  /** Hashes caller IDs' verification codes with the platform's key. */
  verificationCodes: VerificationCodes;
  /** Counts caller ID codes against the limits per destination number and per workspace. */
  codeSendLimits: CodeSendLimits;
  /** The platform carrier's sender of caller ID codes (E.164). */
  callerIdSmsFrom: string;
  /** The platform carrier's caller that says caller ID codes (E.164). */
  callerIdCallFrom: string;
  /** Sends SIP trunks their OPTIONS check, through the egress guard. */
  sipChecker: SipTrunkDeps['checker'];
  pricing: SmsPricing;
  /** Holds the price of a send or a purchase at billing before it goes ahead. */
  holds: BillingHolds;
  /** Checks the assistant a number is given; the service's own tests run without an assistants service. */
  assistants?: AssistantLookup;
  /** What a bought number costs each month and how long a refused month leaves it before it is released. */
  numberTerms: NumberTerms;
  /** How long an SMS's hold lasts (TelephonyConfig.smsHoldSeconds). */
  smsHoldSeconds: number;
  /** The voice runtime's stream endpoint (VOICE_MEDIA_URL), named in the TwiML that connects a call's media. */
  mediaUrl: string;
  /** The calls service: takes inbound calls and the carriers' recordings; the service's own tests may run without one. */
  calls?: CallsPeer;
  /** Asks the outbox relay to publish now (after a usage event committed). */
  wakeRelay(): void;
  now(): Date;
  logger: Logger;
}
