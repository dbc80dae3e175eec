// The telephony service's routes over a real store and carrier directory, behind either test tier:
// the router transport (tier 2) or a real server on port 0 over HTTP/2 (tier 3), both with the
// signed-caller check production runs. Billing is not behind them: its holds are granted and
// recorded here (test/ runs the whole path, real billing included).
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import type { DescService } from '@bufbuild/protobuf';
import type { SecretBox } from '@voice/runtime/crypto';
import { egressPolicy } from '@voice/runtime/egress';
import { createLogger } from '@voice/runtime/logger';
import type { BillingHolds, HoldRequest } from '../src/billing/holds.js';
import type { CallsPeer } from '../src/call-legs/calls-peer.js';
import type { CallProgressListener } from '../src/carriers/carrier.js';
import { CarrierDirectory } from '../src/carriers/directory.js';
import { carrierFor, CircuitBreakers } from '../src/carriers/registry.js';
import type { TelephonyDeps } from '../src/deps.js';
import type { SmsPricing } from '../src/domain/pricing.js';
import { telephonyRoutes } from '../src/routes.js';
import { SipOptionsChecker } from '../src/sip/options-check.js';
import { VerificationCodes } from '../src/caller-ids/verification-code.js';
import { CodeSendLimits } from '../src/caller-ids/code-send-limits.js';
import { defaultCodeSendLimits } from '@voice/contracts/telephony';
import { MemoryWindowCounter } from '@voice/runtime/counters';
import { randomBytes } from 'node:crypto';
import type { TelephonyStore } from '../src/store/store.js';
import { routerClient, serverClient, type TierClient } from '../../runtime/test/service-tiers.js';

export { failure } from '../../runtime/test/service-tiers.js';

export interface HarnessParts {
  store: TelephonyStore;
  box: SecretBox;
  carriers: CarrierDirectory;
  pricing?: SmsPricing;
  wakeRelay?: () => void;
  now?: () => Date;
  holds?: BillingHolds;
  /** The limits on caller ID codes sent; the defaults, counted in memory, unless given. */
  codeSendLimits?: CodeSendLimits;
  /** Lets SIP trunk checks reach loopback (a SIP responder of the test). */
  allowPrivate?: boolean;
  sipCheckTimeoutMs?: number;
  /** The voice runtime's stream endpoint the TwiML names. */
  mediaUrl?: string;
  /** The calls service telephony offers inbound calls and recordings to (none: calls are rejected). */
  calls?: CallsPeer;
}

/** Grants every hold and keeps the requests, for tests that check what was held. */
export class GrantedHolds implements BillingHolds {
  readonly requests: HoldRequest[] = [];

  async authorize(request: HoldRequest) {
    this.requests.push(request);
    return { kind: 'held' as const };
  }

  async release(): Promise<void> {}
}

/**
 * The platform's carrier is the sandbox; a workspace's own connections are built for real, private
 * addresses refused unless `allowPrivate` (a Twilio-shaped server on loopback). close() it after.
 */
export function sandboxCarriers(
  box: SecretBox,
  options: { publicUrl?: string; allowPrivate?: boolean; onCallProgress?: CallProgressListener; mediaUrl?: string } = {},
): CarrierDirectory {
  return new CarrierDirectory({
    platform: { provider: 'sandbox' },
    box,
    publicUrl: options.publicUrl ?? 'https://voice.example',
    build: (account) =>
      carrierFor(account, {
        breakers: new CircuitBreakers(),
        allowPrivate: options.allowPrivate ?? false,
        onDelivery: () => undefined,
        onCallProgress: options.onCallProgress ?? (async () => undefined),
        mediaUrl: options.mediaUrl,
        http: { timeoutMs: 2_000 },
      }),
  });
}

export function telephonyDeps(parts: HarnessParts): TelephonyDeps {
  const logger = createLogger({ service: 'telephony-test', level: 'silent' });
  return {
    store: parts.store,
    box: parts.box,
    carriers: parts.carriers,
    verificationCodes: new VerificationCodes(randomBytes(32)),
    codeSendLimits: parts.codeSendLimits ?? defaultCodeSendLimitsInMemory(),
    callerIdSmsFrom: '+15005550006',
    callerIdCallFrom: '+15005550006',
    sipChecker: new SipOptionsChecker({ policy: egressPolicy({ allowPrivate: parts.allowPrivate ?? false }), timeoutMs: parts.sipCheckTimeoutMs ?? 2_000, logger }),
    pricing: parts.pricing ?? { feePerSegmentUnits: 100, carrierPerSegmentUnits: 0, numberMonthlyUnits: 0 },
    holds: parts.holds ?? new GrantedHolds(),
    numberTerms: { monthlyUnits: parts.pricing?.numberMonthlyUnits ?? 0, graceMs: 7 * 24 * 3600 * 1000 },
    smsHoldSeconds: 3_600,
    mediaUrl: parts.mediaUrl ?? 'wss://voice-runtime.example/media',
    calls: parts.calls,
    wakeRelay: parts.wakeRelay ?? (() => undefined),
    now: parts.now ?? (() => new Date()),
    logger,
  };
}

export type TelephonyTier = TierClient<typeof TelephonyService> & { url?: string };

/** Tier 2 by default; `server` puts the routes on a real server on port 0. close() ends the tier (the parts are the caller's). */
export async function setup(parts: HarnessParts, tier: 'router' | 'server' = 'router'): Promise<TelephonyTier> {
  const routes = telephonyRoutes(telephonyDeps(parts));
  if (tier === 'router') return routerClient(TelephonyService, routes);
  const served = await serverClient(TelephonyService, routes);
  return { ...served, url: served.server.url };
}

/** Another service of the same routes, tier 2 (e.g. CallLegService, the calls service's view of telephony). */
export function setupService<Service extends DescService>(service: Service, parts: HarnessParts): TierClient<Service> {
  return routerClient(service, telephonyRoutes(telephonyDeps(parts)));
}

/** The default limits on caller ID codes, each counted in this process's memory. */
export function defaultCodeSendLimitsInMemory(clock: () => number = Date.now): CodeSendLimits {
  const { perNumber, perWorkspace } = defaultCodeSendLimits;
  return new CodeSendLimits(
    {
      perNumber: { limit: perNumber, counter: new MemoryWindowCounter(perNumber.windowSeconds * 1000, clock) },
      perWorkspace: { limit: perWorkspace, counter: new MemoryWindowCounter(perWorkspace.windowSeconds * 1000, clock) },
    },
    clock,
  );
}
