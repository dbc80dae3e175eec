// Placing and ending call legs for the calls service: the number is checked (the workspace's,
// voice-capable) or, without one, the platform's carrier places the leg for a caller ID; the leg is
// stored before the carrier dials, so every report of it finds it; a carrier that refuses leaves
// the leg failed and the caller a public error.
import { serviceError, invalidRequest, notFound, type FieldIssue } from '@voice/runtime/errors';
import { isUuid, newId } from '@voice/runtime/ids';
import type { EndCallLegRequest, PlaceCallLegRequest } from '@voice/proto/voice/telephony/v1/call_legs';
import { maxCallSeconds } from '@voice/contracts/calls';
import { parseE164 } from '@voice/contracts/telephony';
import { hasEnded, startedLeg } from '../domain/call-legs.js';
import { carrierFailure, withCarrier } from '../carriers/carrier-errors.js';
import type { CarrierRoute } from '../carriers/directory.js';
import type { CallLegRecord, CallLegStore, ConnectionStore, NumberStore } from '../store/store.js';
import type { TelephonyDeps } from '../deps.js';
import { recordLegProgress } from './leg-events.js';

const maxMediaParameters = 20;
const mediaParameterName = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const maxMediaParameterLength = 1024;

function checkPlaceRequest(request: PlaceCallLegRequest): { from: string; to: string } {
  const issues: FieldIssue[] = [];
  if (!isUuid(request.callId)) issues.push({ field: 'call_id', issue: 'must be a UUID' });
  if (!isUuid(request.workspaceId)) issues.push({ field: 'workspace_id', issue: 'must be a UUID' });
  const from = parseE164(request.from)?.number;
  const to = parseE164(request.to)?.number;
  if (from === undefined) issues.push({ field: 'from', issue: 'must be an E.164 phone number' });
  if (to === undefined) issues.push({ field: 'to', issue: 'must be an E.164 phone number' });
  if (!Number.isInteger(request.maxDurationSeconds) || request.maxDurationSeconds < 1 || request.maxDurationSeconds > maxCallSeconds) {
    issues.push({ field: 'max_duration_seconds', issue: `must be an integer from 1 to ${maxCallSeconds}` });
  }
  const parameters = Object.entries(request.mediaParameters);
  if (parameters.length > maxMediaParameters) issues.push({ field: 'media_parameters', issue: `must have at most ${maxMediaParameters} entries` });
  for (const [name, value] of parameters) {
    if (!mediaParameterName.test(name)) issues.push({ field: `media_parameters.${name}`, issue: 'must be a name of letters, digits and underscores' });
    else if (value.length > maxMediaParameterLength) issues.push({ field: `media_parameters.${name}`, issue: `must have at most ${maxMediaParameterLength} characters` });
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return { from: from!, to: to! };
}

export function callLegs(deps: TelephonyDeps<CallLegStore & NumberStore & ConnectionStore>) {
  const { store } = deps;
  const wakeRelay = () => deps.wakeRelay();

  /** The carrier that places a leg from the number (or the platform's, for a caller ID). */
  async function routeOf(request: PlaceCallLegRequest, from: string): Promise<CarrierRoute & { numberId: string | null }> {
    if (request.numberId === '') return { adapter: deps.carriers.platform(), connectionId: null, numberId: null };
    const number = isUuid(request.numberId) ? await store.getNumber(request.workspaceId, request.numberId) : undefined;
    if (!number) throw notFound('phone number');
    if (number.number !== from) throw invalidRequest([{ field: 'from', issue: 'must be the number number_id names' }]);
    if (!number.voiceCapable) throw serviceError('telephony_configuration_error', 'the number cannot place voice calls');
    const connection = number.carrierConnectionId ? await store.getConnection(number.workspaceId, number.carrierConnectionId) : undefined;
    const route = deps.carriers.forNumber(number, connection);
    if (!route) throw serviceError('telephony_configuration_error', 'the imported number has no carrier connection to place calls through');
    return { ...route, numberId: number.id };
  }

  /** The adapter of the carrier carrying a stored leg; undefined when its connection is gone. */
  async function adapterOf(leg: CallLegRecord) {
    if (leg.carrierConnectionId === null) return deps.carriers.platform();
    const connection = await store.getConnectionById(leg.carrierConnectionId);
    return connection && deps.carriers.forConnection(connection);
  }

  return {
    async placeCallLeg(request: PlaceCallLegRequest) {
      const { from, to } = checkPlaceRequest(request);
      const placed = await store.getLegOfCall(request.workspaceId, request.callId);
      // A retried request answers the leg the first one placed instead of dialling twice.
      if (placed) return { legId: placed.id };
      const route = await routeOf(request, from);
      const at = deps.now().toISOString();
      const leg = startedLeg(
        {
          id: newId(),
          workspaceId: request.workspaceId,
          callId: request.callId,
          direction: 'outbound',
          numberId: route.numberId,
          carrierConnectionId: route.connectionId,
          carrierCallId: null,
          from,
          to,
          maxDurationSeconds: request.maxDurationSeconds,
          sealedMediaParameters: deps.box.seal(JSON.stringify(request.mediaParameters)),
          status: 'queued',
        },
        at,
      );
      // The caller learns the leg is queued from the answer; events follow the carrier's reports.
      const inserted = await store.insertLeg(leg, undefined);
      if (inserted.kind === 'exists') return { legId: inserted.leg.id };
      try {
        const { carrierCallId } = await route.adapter.placeCall({
          legId: leg.id,
          from,
          to,
          maxDurationSeconds: leg.maxDurationSeconds,
          mediaParameters: request.mediaParameters,
          ...deps.carriers.callUrls(route.connectionId, leg.id),
        });
        const recorded = await store.recordCarrierCallId(leg.id, carrierCallId, deps.now().toISOString());
        // Ended while the carrier was dialling (EndCallLeg): the carrier's call must not go on.
        if (recorded && hasEnded(recorded)) await route.adapter.endCall(carrierCallId);
      } catch (error) {
        const failure = carrierFailure(error);
        // The caller hears of the refusal from this answer, so the leg's end needs no event.
        await store.advanceLeg(leg.id, { status: 'failed', at: deps.now().toISOString(), failureReason: failure?.rawMessage ?? 'the carrier failed' }, () => undefined);
        throw failure ?? error;
      }
      return { legId: leg.id };
    },

    async endCallLeg(request: EndCallLegRequest) {
      const leg = isUuid(request.callId) && isUuid(request.workspaceId) ? await store.getLegOfCall(request.workspaceId, request.callId) : undefined;
      if (!leg) throw notFound('call leg');
      if (hasEnded(leg)) return {};
      const adapter = await adapterOf(leg);
      if (leg.carrierCallId === null || !adapter) {
        // Nothing to hang up at a carrier: the dial is still on its way (its answer finds the leg
        // ended), or the carrier connection is gone.
        await recordLegProgress({ store, wakeRelay }, leg.id, { status: 'canceled', at: deps.now().toISOString() });
        return {};
      }
      const carrierCallId = leg.carrierCallId;
      await withCarrier(() => adapter.endCall(carrierCallId));
      return {};
    },
  };
}

