// Both dialers of one process (the leads' and the callbacks'), sharing one gate as the worker builds
// them, over the store a test gives and a clock it sets, with the call placer speaking Connect to a
// calls service that places every call it is asked for (recorded in order); a test may stop a dialer
// at its suppression check, after its line and slot are taken and before its claim.
import { createRouterTransport } from '@connectrpc/connect';
import { CallsService, type CreateCallRequest } from '@voice/proto/voice/calls/v1/calls';
import { CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { ConcurrencySlots, MemorySlotTable, MemoryWindowCounter } from '@voice/runtime/counters';
import { newId } from '@voice/runtime/ids';
import { createLogger } from '@voice/runtime/logger';
import { ConnectCampaignCalls } from '../src/peers/campaign-calls.js';
import { CallbackDialer } from '../src/dialer/callback-dialer.js';
import { DialGate } from '../src/dialer/dial-gate.js';
import { Dialer } from '../src/dialer/dialer.js';
import { FromNumbers } from '../src/dialer/from-numbers.js';
import type { CampaignStore } from '../src/store/store.js';
import { PlayedPeers } from './harness.js';

const silent = createLogger({ service: 'test', level: 'silent' });

/** The peers, whose next suppression question can be held: a dialer stopped between its checks and its claim. */
class PausablePeers extends PlayedPeers {
  private pause?: { reached: () => void; resumed: Promise<void> };

  /** Holds the next suppression question until resume(); `reached` once a dialer asks it. */
  pauseNextCheck(): { reached: Promise<void>; resume: () => void } {
    let reached!: () => void;
    let resume!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    this.pause = { reached, resumed: new Promise<void>((resolve) => (resume = resolve)) };
    return { reached: reachedPromise, resume };
  }

  override async suppressedAmong(caller: WorkspaceCaller, numbers: readonly string[]): Promise<Set<string>> {
    const pause = this.pause;
    this.pause = undefined;
    if (pause) {
      pause.reached();
      await pause.resumed;
    }
    return super.suppressedAmong(caller, numbers);
  }
}

export function dialersOver(store: CampaignStore, now: () => Date) {
  const peers = new PausablePeers();
  const calls = { placed: [] as CreateCallRequest[] };
  const transport = createRouterTransport(({ service }) => {
    service(CallsService, {
      createCall: (request) => {
        calls.placed.push(request);
        return { call: { id: newId() } };
      },
    });
  });
  const callSlots = new ConcurrencySlots(new MemorySlotTable(), { stillHeld: async () => true });
  const placer = new ConnectCampaignCalls(transport, new CallerSigner(Buffer.alloc(32, 7)));
  const gate = new DialGate({ peers, fromNumbers: new FromNumbers(peers), calls: placer, dialRates: new MemoryWindowCounter(60_000), callSlots });
  /** The leads' dialer over `over` (the store itself unless a test shows it an older read). */
  const leadDialer = (over: CampaignStore = store) => new Dialer({ store: over, gate, now, logger: silent, wakeRelay: () => undefined });
  const callbackDialer = new CallbackDialer({ store, gate, now, logger: silent });
  return { peers, calls, callSlots, leadDialer, callbackDialer };
}

/** The store as a reader that looked before a change: `getLead` answers `earlier` once, then the store's own. */
export function readingEarlier(store: CampaignStore, earlier: Awaited<ReturnType<CampaignStore['getLead']>>): CampaignStore {
  let answered = false;
  return new Proxy(store, {
    get: (target, property) => {
      if (property === 'getLead' && !answered) {
        return async () => {
          answered = true;
          return earlier;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
