// The post-call summary e-mail an assistant's analysis plan asks for (analysis_plan.summary_email):
// once a call ended (its calls.calls.ended event), one e-mail per recipient from the plan's verified
// sender, queued in platform-users' mail outbox, the one that sends and keeps the workspace's e-mail.
// Each e-mail's id is derived from the call and the recipient, and the outbox queues an id once, so
// a redelivered event (or a retry after a failure) sends nothing twice.
import type { JsonObject } from '@bufbuild/protobuf';
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { callHeaders, serviceCaller, type CallerSigner } from '@voice/runtime/caller';
import { derivedId } from '@voice/runtime/ids';
import type { WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import type { CallStore, CallView } from '../store/store.js';

export interface SummaryEmailDeps {
  store: Pick<CallStore, 'getCallById'>;
  emails: Client<typeof WorkspaceEmailService>;
  signer: CallerSigner;
}

interface SummaryEmailPlan {
  sender_id: string;
  recipients: string[];
}

const maxSummaryLength = 15_000;

/** The plan the call's assistant version had when the call was created: what it runs by, to the end. */
const summaryEmailOf = (call: CallView): SummaryEmailPlan | undefined => {
  const plan = call.assistantConfig.analysis_plan as JsonObject | undefined;
  return plan?.summary_email as SummaryEmailPlan | undefined;
};

/** Queues the call's summary e-mails, if its plan asks for them; throws (the event comes again) when platform-users cannot take them now. */
export async function sendSummaryEmail(deps: SummaryEmailDeps, callId: string, requestId: string): Promise<'queued' | 'not_asked' | 'unknown_call' | 'refused'> {
  const call = await deps.store.getCallById(callId);
  if (!call) return 'unknown_call';
  const plan = summaryEmailOf(call);
  if (!plan) return 'not_asked';
  try {
    await queue(deps, call, plan, requestId);
  } catch (error) {
    // A request the outbox can never take (a plan stored before a rule it breaks): no retry helps.
    if (ConnectError.from(error).code === Code.InvalidArgument) return 'refused';
    throw error;
  }
  return 'queued';
}

async function queue(deps: SummaryEmailDeps, call: CallView, plan: SummaryEmailPlan, requestId: string): Promise<void> {
  await deps.emails.queueWorkspaceEmail(
    {
      senderId: plan.sender_id,
      recipients: plan.recipients.map((to) => ({ emailId: derivedId('call-summary-email', call.id, to.toLowerCase()), to })),
      subject: `Call summary: ${call.from} to ${call.to}`,
      text: summaryText(call),
      callId: call.id,
    },
    { headers: callHeaders(deps.signer, serviceCaller('calls', call.workspaceId, requestId)) },
  );
}

function summaryText(call: CallView): string {
  const summary = call.summary ?? 'The call ended without a summary.';
  return [
    `Call ${call.id} (${call.direction}) from ${call.from} to ${call.to}`,
    `Status: ${call.status}; ${call.durationSeconds} seconds${call.endedAt ? `; ended ${call.endedAt}` : ''}`,
    ...(call.verdict ? [`Verdict: ${call.verdict}`] : []),
    '',
    summary.length > maxSummaryLength ? `${summary.slice(0, maxSummaryLength)}…` : summary,
  ].join('\n');
}
