// The CallRouteService: whether a workspace may call from one of its numbers or verified caller IDs
// to a destination, asked by the calls service before it holds funds. The same rules as an SMS's
// sender and destination, for voice: the number is the workspace's and can carry voice (or it is a
// caller ID the workspace verified, which the platform's carrier places), and the destination is not
// on the workspace's suppression list. A pending caller ID is no route: the same 404 as an unknown number.
// FilterSuppressed answers the suppressed numbers among many at once (the campaigns service's imports).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { internalCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import type { CallRouteService, CheckCallRouteRequest, FilterSuppressedRequest } from '@voice/proto/voice/telephony/v1/call_routes';
import { parseE164 } from '@voice/contracts/telephony';
import type { CallerIdStore, NumberStore, SuppressionStore } from '../store/store.js';

/** The most numbers one FilterSuppressed call asks about: one bulk import of leads. */
const maxFilteredNumbers = 10_000;

/** The number_id of a route from a verified caller ID: no workspace number, the platform's carrier places the leg. */
export const callerIdRoute = '';

export class CallRoutes implements ServiceImpl<typeof CallRouteService> {
  constructor(private readonly store: Pick<NumberStore, 'findNumber'> & Pick<CallerIdStore, 'verifiedCallerId'> & Pick<SuppressionStore, 'isSuppressed' | 'suppressedAmong'>) {}

  async checkCallRoute(request: CheckCallRouteRequest, context: HandlerContext) {
    const caller = internalCallerOf(context);
    if (!caller.workspaceId) throw serviceError('unauthorized', 'the call names no workspace');
    const from = parseE164(request.from)?.number;
    const to = parseE164(request.to)?.number;
    if (!from || !to) {
      throw invalidRequest([...(from ? [] : [{ field: 'from', issue: 'must be a valid phone number' }]), ...(to ? [] : [{ field: 'to', issue: 'must be a valid phone number' }])]);
    }
    const numberId = await this.callingNumberId(caller.workspaceId, from);
    if (await this.store.isSuppressed(caller.workspaceId, to)) {
      throw serviceError('destination_forbidden', "the destination is on this workspace's suppression list");
    }
    return { numberId };
  }

  async filterSuppressed(request: FilterSuppressedRequest, context: HandlerContext) {
    const caller = internalCallerOf(context);
    if (!caller.workspaceId) throw serviceError('unauthorized', 'the call names no workspace');
    if (request.numbers.length > maxFilteredNumbers) throw invalidRequest([{ field: 'numbers', issue: `must have at most ${maxFilteredNumbers} numbers` }]);
    return { suppressed: await this.store.suppressedAmong(caller.workspaceId, request.numbers) };
  }

  /** The workspace number placing a call from `from`, or callerIdRoute for a verified caller ID; a workspace number decides first. */
  private async callingNumberId(workspaceId: string, from: string): Promise<string> {
    const number = await this.store.findNumber(workspaceId, from);
    if (number) {
      if (!number.voiceCapable) throw serviceError('telephony_configuration_error', 'the calling number is not voice-capable');
      return number.id;
    }
    if (await this.store.verifiedCallerId(workspaceId, from)) return callerIdRoute;
    throw notFound('phone number');
  }
}
