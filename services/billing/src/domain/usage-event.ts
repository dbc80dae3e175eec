// A usage event off the stream, decoded and checked: either a charge billing can apply or the
// reason it never could be.
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { UsageEventSchema } from '@voice/proto/voice/billing/v1/events';
import type { StreamEvent } from '@voice/runtime/events';
import { nonNegativeIssue, type Units } from './amounts.js';
import { usageKindIssue } from './kinds.js';

export interface UsageCharge {
  /** The UsageEvent.event_id: the same id is the same usage, however often it arrives. */
  eventId: string;
  workspaceId: string;
  kind: string;
  /** What was consumed, not negative. */
  consumed: Units;
  reference: string;
  description: string;
  /** The hold this use captures; empty for producers from before holds. */
  holdId: string;
}

/** `occurredAt` is when the producer created the event, when it says. */
export type DecodedUsage = { ok: true; charge: UsageCharge; occurredAt?: Date } | { ok: false; problem: string };

export function decodeUsageEvent(event: StreamEvent): DecodedUsage {
  let usage;
  try {
    usage = fromBinary(UsageEventSchema, event.payload);
  } catch (error) {
    return { ok: false, problem: `not a UsageEvent: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!usage.workspaceId) return { ok: false, problem: 'workspace_id is missing' };
  const kindIssue = usageKindIssue(usage.kind);
  if (kindIssue) return { ok: false, problem: `kind ${kindIssue}` };
  const unitsIssue = nonNegativeIssue(usage);
  if (unitsIssue) return { ok: false, problem: unitsIssue };
  return {
    ok: true,
    charge: {
      // Producers publish with the event id as the stream's message id; the payload's is authoritative.
      eventId: usage.eventId || event.id,
      workspaceId: usage.workspaceId,
      kind: usage.kind,
      consumed: { creditUnits: Number(usage.creditUnits), minuteUnits: Number(usage.minuteUnits) },
      reference: usage.reference,
      description: usage.description,
      holdId: usage.holdId,
    },
    occurredAt: usage.occurredAt ? timestampDate(usage.occurredAt) : undefined,
  };
}
