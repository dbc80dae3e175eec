// What the calls service's handlers need; main.ts builds it once.
import type { Logger } from '@voice/runtime/logger';
import type { MinutesHolds } from './billing/holds.js';
import type { MinuteRounding } from './domain/minutes.js';
import type { SessionTokens } from './domain/session-token.js';
import type { CallPeers } from './peers/peers.js';
import type { CallStore } from './store/store.js';

export interface CallTerms {
  /** What a minute beyond the included minutes costs, in credit sub-units. */
  creditUnitsPerMinute: number;
  minuteRounding: MinuteRounding;
  /** How long a call's hold outlives its longest possible length. */
  holdMarginSeconds: number;
}

export interface CallsDeps {
  store: CallStore;
  peers: CallPeers;
  holds: MinutesHolds;
  tokens: SessionTokens;
  terms: CallTerms;
  /** Asks the outbox relay to publish now (after an event committed). */
  wakeRelay(): void;
  now(): Date;
  logger: Logger;
}
