// Sends a caller ID its code by SMS through the platform's carrier, paid the way every SMS is: the
// price is held at billing first (a wallet that cannot pay it is refused, nothing is sent), and the
// carrier's acceptance captures the hold through a usage event written with the caller ID's record
// of the send; a send that did not happen gives the hold back.
import { formatCredits } from '@voice/runtime/amounts';
import { serviceError } from '@voice/runtime/errors';
import { segmentSms, verificationCodeLifetimeMinutes } from '@voice/contracts/telephony';
import { BillingUnreachable } from '../billing/holds.js';
import { settlementEvent, smsUsageKind } from '../billing/usage-events.js';
import { withCarrier } from '../carriers/carrier-errors.js';
import { smsPriceUnits } from '../domain/pricing.js';
import type { TelephonyDeps } from '../deps.js';
import type { CallerIdRecord, CallerIdStore } from '../store/store.js';

export const codeSmsBody = (code: string): string => `Your verification code is ${code}. It expires in ${verificationCodeLifetimeMinutes} minutes.`;

export function codeSms(deps: TelephonyDeps<CallerIdStore>) {
  return async function sendCodeBySms(callerId: CallerIdRecord, code: string, requestId: string): Promise<void> {
    const body = codeSmsBody(code);
    const creditUnits = smsPriceUnits(deps.pricing, segmentSms(body).segments, 'marketplace');
    const hold = { workspaceId: callerId.workspaceId, holdId: callerId.id, requestId };
    const description = `Caller ID verification SMS to ${callerId.phoneNumber}`;
    if (creditUnits > 0) {
      let answer;
      try {
        answer = await deps.holds.authorize({ ...hold, creditUnits, kind: smsUsageKind, reference: callerId.id, description, expiresInSeconds: deps.smsHoldSeconds });
      } catch (error) {
        if (!(error instanceof BillingUnreachable)) throw error;
        throw serviceError('telephony_unavailable', 'the platform could not hold the price of the code’s SMS; nothing was sent or charged, retry shortly', { cause: error });
      }
      if (answer.kind === 'refused') {
        throw serviceError('conflict', `not enough credits: the code’s SMS costs ${formatCredits(creditUnits)} credits and ${formatCredits(Math.max(0, answer.availableUnits))} are available`);
      }
    }
    try {
      await withCarrier(() => deps.carriers.platform().sendSms({ from: deps.callerIdSmsFrom, to: callerId.phoneNumber, body }));
    } catch (error) {
      if (creditUnits > 0) await deps.holds.release(hold);
      throw error;
    }
    const at = deps.now().toISOString();
    const capture = creditUnits > 0 ? settlementEvent('sms', { workspaceId: callerId.workspaceId, holdId: callerId.id, kind: smsUsageKind, creditUnits, reference: callerId.id, description, at }) : undefined;
    if (await deps.store.recordCodeSent(callerId.id, capture, at)) deps.wakeRelay();
  };
}
