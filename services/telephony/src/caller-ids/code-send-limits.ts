// The limits on verification codes sent: per destination number across the whole platform (so no
// workspace, nor several together, can make the platform text or call a stranger's phone again and
// again) and per workspace. They are counted in window counters shared by telephony's replicas,
// apart from the caller IDs' records, so deleting a caller ID and adding it again sends no extra code.
import type { CodeSendLimit } from '@voice/contracts/telephony';
import { windowLimit, type WindowCount, type WindowCounter } from '@voice/runtime/counters';
import { serviceError } from '@voice/runtime/errors';

/** A limit and the counter (opened with the limit's window) that counts against it. */
export interface CountedLimit {
  limit: CodeSendLimit;
  counter: WindowCounter;
}

/** "24 h", "10 min", "90 s": the window as a person reads it. */
export function windowText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const codesText = (codes: number): string => `${codes} verification code${codes === 1 ? '' : 's'}`;

export class CodeSendLimits {
  constructor(
    private readonly limits: { perNumber: CountedLimit; perWorkspace: CountedLimit },
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Counts one code for the workspace to `phoneNumber`, or throws rate_limited (with the seconds until
   * the window resets) when either limit is spent. The workspace's limit is taken first: a workspace
   * over its own limit spends nothing of a number's.
   */
  async take(workspaceId: string, phoneNumber: string): Promise<void> {
    const { perWorkspace, perNumber } = this.limits;
    const workspace = await perWorkspace.counter.hit(workspaceId);
    this.refuseOver(perWorkspace.limit, workspace, `this workspace may send at most ${codesText(perWorkspace.limit.codes)} per ${windowText(perWorkspace.limit.windowSeconds)}`);
    const number = await perNumber.counter.hit(phoneNumber);
    this.refuseOver(perNumber.limit, number, `a number gets at most ${codesText(perNumber.limit.codes)} per ${windowText(perNumber.limit.windowSeconds)}, whoever asks`);
  }

  async close(): Promise<void> {
    await Promise.all([this.limits.perNumber.counter.close(), this.limits.perWorkspace.counter.close()]);
  }

  private refuseOver(limit: CodeSendLimit, count: WindowCount, rule: string): void {
    const { limited, retryAfterSeconds, limitedUntil } = windowLimit(count, limit.codes, this.clock());
    if (!limited) return;
    const at = new Date(limitedUntil).toISOString();
    throw serviceError('rate_limited', `${rule}; nothing was sent: retry after ${at} (in ${retryAfterSeconds} s)`, { retryAfterSeconds });
  }
}
