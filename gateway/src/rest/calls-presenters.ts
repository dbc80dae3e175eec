// The calls API's filter values as the calls service's enums. The call itself is presented in
// @voice/contracts/calls-presenters, which the call webhook events share.
import type { callDirections, callStatuses } from '@voice/contracts/calls';
import { CallDirection, CallStatus } from '@voice/proto/voice/calls/v1/calls';

/** The proto enum of a status or direction a client filters by. */
export const callStatusOf = (name: (typeof callStatuses)[number]): CallStatus => CallStatus[name.toUpperCase() as keyof typeof CallStatus];
export const callDirectionOf = (name: (typeof callDirections)[number]): CallDirection => CallDirection[name.toUpperCase() as keyof typeof CallDirection];
