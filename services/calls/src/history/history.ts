// The HistoryService: a workspace's calls, SMS and e-mails as one timeline, newest first. Calls are this
// service's; SMS are read from telephony and e-mails from platform-users at request time rather than
// copied here, so the timeline always shows what the owning service holds (a status that moves later,
// an e-mail sent after a retry) and no projection can drift or need repair.
import { create } from '@bufbuild/protobuf';
import type { Client, HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { emailIssue } from '@voice/runtime/accounts';
import { callHeaders, serviceCaller, workspaceCallerOf, type CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { invalidRequest, type FieldIssue } from '@voice/runtime/errors';
import { toIso, toTimestamp } from '@voice/runtime/time';
import { normalisePage } from '@voice/runtime/validation';
import { parseE164 } from '@voice/contracts/telephony';
import { historyChannels, maxTimelineDepth, type HistoryChannel } from '@voice/contracts/history';
import { HistoryItemSchema, type HistoryService, type ListHistoryRequest } from '@voice/proto/voice/calls/v1/history';
import type { WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import type { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import type { CallStore } from '../store/store.js';
import { timelinePage, type TimelineEntry, type TimelineSource } from './timeline-page.js';

export interface HistoryDeps {
  store: Pick<CallStore, 'listCalls'>;
  telephony: Client<typeof TelephonyService>;
  emails: Client<typeof WorkspaceEmailService>;
  signer: CallerSigner;
}

interface Entry extends TimelineEntry {
  channel: HistoryChannel;
  direction: string;
  status: string;
  from: string;
  to: string;
  preview: string;
}

interface HistoryQuery {
  channel: HistoryChannel | undefined;
  /** Set when the contact is a phone number: calls and SMS from or to it. */
  number: string | undefined;
  /** Set when the contact is an e-mail address: e-mails from or to it. */
  address: string | undefined;
  createdFrom: string | undefined;
  createdTo: string | undefined;
}

export class History implements ServiceImpl<typeof HistoryService> {
  constructor(private readonly deps: HistoryDeps) {}

  async listHistory(request: ListHistoryRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const page = normalisePage(request.page);
    const query = queryOf(request, page.offset + page.limit);
    const { entries, total } = await timelinePage(this.sources(caller, query), page);
    return {
      items: entries.map((entry) => create(HistoryItemSchema, { ...entry, createdAt: toTimestamp(entry.createdAt) })),
      total,
    };
  }

  /** The channels the query can match: a number matches no e-mail, an address no call or SMS. */
  private sources(caller: WorkspaceCaller, query: HistoryQuery): TimelineSource<Entry>[] {
    const wanted = (channel: HistoryChannel) => query.channel === undefined || query.channel === channel;
    const range = { createdFrom: query.createdFrom, createdTo: query.createdTo };
    const timestamps = { createdFrom: query.createdFrom ? toTimestamp(query.createdFrom) : undefined, createdTo: query.createdTo ? toTimestamp(query.createdTo) : undefined };
    const options = this.options(caller);
    const sources: TimelineSource<Entry>[] = [];
    if (wanted('call') && query.address === undefined) {
      sources.push(async (page) => {
        const { calls, total } = await this.deps.store.listCalls(caller.workspaceId, { number: query.number, ...range }, page);
        const entries = calls.map((call) => ({ id: call.id, channel: 'call' as const, direction: call.direction, status: call.status, from: call.from, to: call.to, preview: call.summary ?? '', createdAt: call.createdAt }));
        return { entries, total };
      });
    }
    if (wanted('sms') && query.address === undefined) {
      sources.push(async (page) => {
        const { messages, total } = await this.deps.telephony.listMessages({ page, number: query.number ?? '', ...timestamps }, options);
        const entries = messages.map((message) => ({ id: message.id, channel: 'sms' as const, direction: 'outbound', status: message.status, from: message.from, to: message.to, preview: message.body, createdAt: toIso(message.createdAt)! }));
        return { entries, total };
      });
    }
    if (wanted('email') && query.number === undefined) {
      sources.push(async (page) => {
        const { emails, total } = await this.deps.emails.listWorkspaceEmails({ page, address: query.address ?? '', ...timestamps }, options);
        const entries = emails.map((email) => ({ id: email.id, channel: 'email' as const, direction: 'outbound', status: email.status, from: email.from, to: email.to, preview: email.subject, createdAt: toIso(email.createdAt)! }));
        return { entries, total };
      });
    }
    return sources;
  }

  private options(caller: WorkspaceCaller) {
    return { headers: callHeaders(this.deps.signer, serviceCaller('calls', caller.workspaceId, caller.requestId)) };
  }
}

/** The request's filters; each value the API cannot take is a 400 naming its field. */
function queryOf(request: ListHistoryRequest, depth: number): HistoryQuery {
  const issues: FieldIssue[] = [];
  const channel = request.channel === '' ? undefined : (historyChannels as readonly string[]).includes(request.channel) ? (request.channel as HistoryChannel) : undefined;
  if (request.channel !== '' && channel === undefined) issues.push({ field: 'channel', issue: `must be one of ${historyChannels.join(', ')}` });
  const contact = request.contact.trim();
  const number = contact.startsWith('+') ? parseE164(contact)?.number : undefined;
  const address = contact && !contact.startsWith('+') && !emailIssue(contact.toLowerCase()) ? contact.toLowerCase() : undefined;
  if (contact && number === undefined && address === undefined) issues.push({ field: 'contact', issue: 'must be a phone number in international format or an e-mail address' });
  const createdFrom = toIso(request.createdFrom) ?? undefined;
  const createdTo = toIso(request.createdTo) ?? undefined;
  if (createdFrom !== undefined && createdTo !== undefined && createdFrom >= createdTo) issues.push({ field: 'created_to', issue: 'must be later than created_from' });
  if (depth > maxTimelineDepth) issues.push({ field: 'offset', issue: `offset + limit must be at most ${maxTimelineDepth}; page further back with created_to` });
  if (issues.length > 0) throw invalidRequest(issues);
  return { channel, number, address, createdFrom, createdTo };
}
