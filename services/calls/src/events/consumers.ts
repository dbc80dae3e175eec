// The streams the calls service follows, each with its own durable consumer shared by its replicas:
// the carrier legs' progress (CallLegChanged) moves calls; billing's wallet changes tell what an ended
// call was charged; its own ended calls send their summary e-mails. Each handler applies an event once
// however often it comes (a leg report by its sequence, a charge by the call's charged flag, an e-mail
// by its id), so several run at once. An event that can never
// apply (undecodable, an unknown state) is logged and acknowledged.
import { fromBinary } from '@bufbuild/protobuf';
import {
  callEndedSubject,
  callLegChangedSubject,
  callLegStream,
  callStream,
  durableNames,
  walletChangedSubject,
  walletStream,
  type Consumption,
  type EventStream,
  type StreamEvent,
} from '@voice/runtime/events';
import type { Logger } from '@voice/runtime/logger';
import { toIso } from '@voice/runtime/time';
import { CallLegChangedSchema, CallLegStatus } from '@voice/proto/voice/telephony/v1/call_legs';
import { callStatusNamed } from '@voice/contracts/calls-presenters';
import { WalletChangedSchema } from '@voice/proto/voice/billing/v1/events';
import { CallChangedSchema } from '@voice/proto/voice/calls/v1/events';
import { recordCharge } from '../billing/charges.js';
import type { CallsDeps } from '../deps.js';
import { applyLegReport } from '../legs/leg-reports.js';
import { sendSummaryEmail, type SummaryEmailDeps } from '../summaries/summary-email.js';

const concurrency = 4;

function decoded<T>(event: StreamEvent, decode: (payload: Uint8Array) => T, logger: Logger): T | undefined {
  try {
    return decode(event.payload);
  } catch (error) {
    logger.error('undecodable event dropped', { event_id: event.id, subject: event.subject, error });
    return undefined;
  }
}

export async function startCallConsumers(stream: EventStream, deps: CallsDeps, summaries: SummaryEmailDeps): Promise<Consumption[]> {
  const logger = deps.logger.child({ component: 'call-consumers' });
  await stream.ensureStream(callStream.name, callStream.subjects);
  await stream.ensureStream(callLegStream.name, callLegStream.subjects);
  await stream.ensureStream(walletStream.name, walletStream.subjects);
  const legs = await stream.consume({
    stream: callLegStream.name,
    durable: durableNames.callsLegs,
    subjects: [callLegChangedSubject],
    concurrency,
    handler: async (event) => {
      const changed = decoded(event, (payload) => fromBinary(CallLegChangedSchema, payload), logger);
      if (!changed) return;
      const status = callStatusNamed(CallLegStatus[changed.status]);
      const at = toIso(changed.occurredAt);
      if (!status || !at) {
        logger.error('a leg report without a known state or time dropped', { event_id: event.id, call_id: changed.callId });
        return;
      }
      const outcome = await applyLegReport(deps, changed.workspaceId, changed.callId, {
        status,
        sequence: changed.sequence,
        at,
        durationSeconds: changed.durationSeconds,
        failureReason: changed.failureReason,
      });
      if (outcome === 'unknown_call') logger.warn('a leg report for a call this service does not have', { event_id: event.id, call_id: changed.callId });
    },
  });
  const wallets = await stream.consume({
    stream: walletStream.name,
    durable: durableNames.callsWallets,
    subjects: [walletChangedSubject],
    concurrency,
    handler: async (event) => {
      const changed = decoded(event, (payload) => fromBinary(WalletChangedSchema, payload), logger);
      if (changed) await recordCharge(deps, changed);
    },
  });
  // The service's own ended calls: their summary e-mails (one per call and recipient, however often the event comes).
  const ended = await stream.consume({
    stream: callStream.name,
    durable: durableNames.callsSummaryEmails,
    subjects: [callEndedSubject],
    concurrency,
    handler: async (event) => {
      const changed = decoded(event, (payload) => fromBinary(CallChangedSchema, payload), logger);
      if (!changed?.call) return;
      const outcome = await sendSummaryEmail(summaries, changed.call.id, event.id);
      if (outcome === 'unknown_call') logger.warn('an ended call this service does not have', { event_id: event.id, call_id: changed.call.id });
      if (outcome === 'refused') logger.error('the summary e-mail of a call was refused by the mail outbox; dropped', { event_id: event.id, call_id: changed.call.id });
    },
  });
  return [legs, wallets, ended];
}
