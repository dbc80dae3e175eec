// SIP trunks as public JSON: the password only as the mask, the routed numbers by id. Typed by the
// schemas in @voice/contracts/telephony.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { CheckSipTrunkResponse, SipTrunk } from '@voice/proto/voice/telephony/v1/sip_trunks';
import { oneOf } from '@voice/contracts/responses';
import { sipCheckFailures, sipTransports, sipTrunkDirections, type sipTrunkCheckSchema, type sipTrunkSchema } from '@voice/contracts/telephony';

export const presentSipTrunk = (trunk: SipTrunk): z.infer<typeof sipTrunkSchema> => ({
  id: trunk.id,
  name: trunk.name,
  address: trunk.address,
  transport: oneOf(sipTransports, trunk.transport),
  direction: oneOf(sipTrunkDirections, trunk.direction),
  authentication: trunk.username ? { username: trunk.username, password: trunk.passwordHint } : null,
  number_ids: trunk.numberIds,
  created_at: toIso(trunk.createdAt)!,
  updated_at: toIso(trunk.updatedAt)!,
});

export const presentSipTrunkCheck = (answer: CheckSipTrunkResponse): z.infer<typeof sipTrunkCheckSchema> =>
  answer.reachable
    ? { reachable: true, status_code: answer.statusCode, reason_phrase: answer.reasonPhrase, round_trip_ms: answer.roundTripMs, failure: null }
    : { reachable: false, status_code: null, reason_phrase: null, round_trip_ms: null, failure: { code: oneOf(sipCheckFailures, answer.failure), message: answer.message } };
