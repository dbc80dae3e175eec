// The CallRouteService: whether a workspace may call from one of its numbers to a destination,
// asked by the calls service before it holds funds. The same rules as an SMS's sender and
// destination, for voice: the number is the workspace's, it can carry voice, and the destination is
// not on the workspace's suppression list.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { internalCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import type { CallRouteService, CheckCallRouteRequest } from '@voice/proto/voice/telephony/v1/call_routes';
import { parseE164 } from '@voice/contracts/telephony';
import type { NumberStore, SuppressionStore } from '../store/store.js';

export class CallRoutes implements ServiceImpl<typeof CallRouteService> {
  constructor(private readonly store: Pick<NumberStore, 'findNumber'> & Pick<SuppressionStore, 'isSuppressed'>) {}

  async checkCallRoute(request: CheckCallRouteRequest, context: HandlerContext) {
    const caller = internalCallerOf(context);
    if (!caller.workspaceId) throw serviceError('unauthorized', 'the call names no workspace');
    const from = parseE164(request.from)?.number;
    const to = parseE164(request.to)?.number;
    if (!from || !to) {
      throw invalidRequest([...(from ? [] : [{ field: 'from', issue: 'must be a valid phone number' }]), ...(to ? [] : [{ field: 'to', issue: 'must be a valid phone number' }])]);
    }
    const number = await this.store.findNumber(caller.workspaceId, from);
    if (!number) throw notFound('phone number');
    if (!number.voiceCapable) throw serviceError('telephony_configuration_error', 'the calling number is not voice-capable');
    if (await this.store.isSuppressed(caller.workspaceId, to)) {
      throw serviceError('destination_forbidden', "the destination is on this workspace's suppression list");
    }
    return { numberId: number.id };
  }
}
