// A call's status and direction between their stored names (the API's: `in_progress`) and the proto
// enums (`CallStatus.IN_PROGRESS`, and a leg's `CallLegStatus.IN_PROGRESS`): the same words.
import { CallDirection, CallStatus } from '@voice/proto/voice/calls/v1/calls';
import { CallLegStatus } from '@voice/proto/voice/telephony/v1/call_legs';
import { callDirections, callStatuses, type CallDirectionName, type CallStatusName } from '@voice/contracts/calls';

const nameIn = <Name extends string>(names: readonly Name[], enumName: string | undefined): Name | undefined =>
  names.find((name) => name.toUpperCase() === enumName);

export const statusEnumOf = (status: CallStatusName): CallStatus => CallStatus[status.toUpperCase() as keyof typeof CallStatus];

/** The stored name of a status; undefined for UNSPECIFIED or an unknown number. */
export const statusNameOf = (status: CallStatus): CallStatusName | undefined => nameIn(callStatuses, CallStatus[status]);

export const directionEnumOf = (direction: CallDirectionName): CallDirection => CallDirection[direction.toUpperCase() as keyof typeof CallDirection];

export const directionNameOf = (direction: CallDirection): CallDirectionName | undefined => nameIn(callDirections, CallDirection[direction]);

/** The call status a carrier leg's state stands for; undefined for an unknown state. */
export const statusOfLeg = (status: CallLegStatus): CallStatusName | undefined => nameIn(callStatuses, CallLegStatus[status]);
