// The one place that knows which adapter serves which provider.
import type { Logger } from '@voice/runtime/logger';
import type { CallProgressListener, CarrierAccount, CarrierAdapter } from './carrier.js';
import type { CircuitBreakers } from './resilience/circuit-breaker.js';
import { SandboxCarrier, type DeliveryListener, type SandboxCarrierOptions } from './sandbox.js';
import { TwilioCompatibleCarrier, type TwilioCarrierOptions } from './twilio.js';

export { CircuitBreakers, type CircuitBreakerSettings } from './resilience/circuit-breaker.js';

export interface CarrierOptions {
  /** Shared by every adapter of the process: one circuit per carrier account. */
  breakers: CircuitBreakers;
  /** Let HTTP carriers reach private and loopback addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** Where HTTP carriers log the detail of a failed request. */
  logger?: Logger;
  /** Where the sandbox reports deliveries (HTTP carriers post status callbacks instead). */
  onDelivery: DeliveryListener;
  /** Where the sandbox reports its calls' progress (HTTP carriers post status callbacks instead). */
  onCallProgress: CallProgressListener;
  /** The voice runtime's stream endpoint the sandbox connects answered calls to (VOICE_MEDIA_URL). */
  mediaUrl?: string;
  /** Timeouts and retries of HTTP carriers; their defaults otherwise. */
  http?: Pick<TwilioCarrierOptions, 'timeoutMs' | 'retries' | 'retryBaseDelayMs' | 'random'>;
  /** Delivery-report delays of the sandbox; its defaults otherwise. */
  sandbox?: Pick<SandboxCarrierOptions, 'sentAfterMs' | 'finalAfterMs' | 'ringAfterMs' | 'answerAfterMs' | 'now'>;
}

/** The adapter for the account. The sandbox's has a close() that cancels its pending delivery reports. */
export function carrierFor(account: CarrierAccount, options: CarrierOptions): CarrierAdapter {
  switch (account.provider) {
    case 'sandbox':
      return new SandboxCarrier(account, {
        ...options.sandbox,
        onDelivery: options.onDelivery,
        onCallProgress: options.onCallProgress,
        mediaUrl: options.mediaUrl,
        logger: options.logger,
      });
    case 'twilio':
      return new TwilioCompatibleCarrier(account, { ...options.http, breakers: options.breakers, allowPrivate: options.allowPrivate, logger: options.logger });
  }
}
