// Says a caller ID its code in a call through the platform's carrier. The call is free, as carriers'
// own caller ID validation calls are: it lasts seconds, and a workspace cannot have a number called
// again while its code is pending (POST /caller-ids for it is 409 then).
import { verificationCodeLifetimeMinutes } from '@voice/contracts/telephony';
import { withCarrier } from '../carriers/carrier-errors.js';
import type { TelephonyDeps } from '../deps.js';
import type { CallerIdRecord } from '../store/store.js';

/** The digits apart, so a text-to-speech engine reads them one by one. */
export const codeSpeech = (code: string): string =>
  `Your verification code is ${[...code].join(', ')}. It expires in ${verificationCodeLifetimeMinutes} minutes.`;

export function codeCall(deps: Pick<TelephonyDeps, 'carriers' | 'callerIdCallFrom'>) {
  return async function sendCodeByCall(callerId: CallerIdRecord, code: string): Promise<void> {
    const call = { from: deps.callerIdCallFrom, to: callerId.phoneNumber, speech: codeSpeech(code), reference: callerId.id };
    await withCarrier(() => deps.carriers.platform().placeSpokenCall(call));
  };
}
