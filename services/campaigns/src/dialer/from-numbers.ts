// The E.164 of the numbers campaigns call from, asked of telephony at most once per number and
// minute rather than at every dial. A number released mid-run is used for at most that minute, and
// not even then: the calls service checks the from-number of every call it places and refuses one
// that is no longer the workspace's.
import type { WorkspaceCaller } from '@voice/runtime/caller';
import type { CampaignPeers } from '../peers/peers.js';

const freshForMs = 60_000;

export class FromNumbers {
  private readonly known = new Map<string, { number: string | undefined; until: number }>();

  constructor(
    private readonly peers: Pick<CampaignPeers, 'numberOf'>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The number's E.164, undefined when it is not the workspace's. */
  async numberOf(caller: WorkspaceCaller, numberId: string): Promise<string | undefined> {
    const key = `${caller.workspaceId}:${numberId}`;
    const now = this.clock();
    const cached = this.known.get(key);
    if (cached && cached.until > now) return cached.number;
    const number = await this.peers.numberOf(caller, numberId);
    if (this.known.size > 10_000) for (const [stale, entry] of this.known) if (entry.until <= now) this.known.delete(stale);
    this.known.set(key, { number, until: now + freshForMs });
    return number;
  }
}
