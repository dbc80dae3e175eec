// /history (issue 16): one timeline of the workspace's calls, SMS and e-mails (the calls service
// merges them), and each e-mail with its delivery status (platform-users, whose outbox sends it).
import { dataOf, listOfSchema } from '@voice/contracts/responses';
import { emailHistoryItemSchema, historyItemSchema, listHistoryQuerySchema, maxTimelineDepth } from '@voice/contracts/history';
import type { RestDeps } from './deps.js';
import { presentEmailHistoryItem, presentHistoryItem } from './history-presenters.js';
import { toolHints } from './operation.js';
import { listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf, timestampOf } from './validate.js';

export function registerHistoryRoutes(rest: RestRouter, deps: RestDeps): void {
  const toolset = 'calls';

  rest.operation({
    method: 'get',
    path: '/history',
    scope: 'calls:read',
    query: listHistoryQuerySchema,
    doc: {
      id: 'listHistory',
      summary: 'The workspace’s conversations, newest first: calls, SMS and e-mails in one timeline',
      description:
        'Each item names its channel and its id there (GET /calls/{id}, GET /history/emails/{id}). `contact` takes a phone number (calls and SMS from or to it) or an e-mail address (e-mails from or to it). ' +
        `Pages go at most ${maxTimelineDepth} items deep (\`offset\` + \`limit\`, 400 beyond): page further back with \`created_to\` set to the oldest item’s \`created_at\`. ` +
        'The channels are read where they live (calls here, SMS from telephony, e-mails from the mail outbox), so a status is always the current one.',
      toolset,
      response: listOfSchema(historyItemSchema),
      mcp: { tool: 'list_history', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const { query } = call;
      const answer = await deps.clients.history.listHistory(
        { page, channel: query.channel ?? '', contact: query.contact ?? '', createdFrom: timestampOf(query.created_from), createdTo: timestampOf(query.created_to) },
        call.options,
      );
      return { body: listOf(answer.items.map(presentHistoryItem), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/history/emails/:id',
    scope: 'calls:read',
    doc: {
      id: 'getEmailHistoryItem',
      summary: 'An e-mail the workspace sent (a post-call summary), with its delivery status',
      description:
        '`queued` while the platform sends it (a mail server that refuses it is retried with backoff for a day), `sent` once the mail server accepted it, `failed` when it was given up or its sender was deleted or unverified before it went out (`failure_reason`).',
      toolset,
      response: dataOf(emailHistoryItemSchema),
      mcp: { tool: 'get_email_history_item', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await deps.clients.workspaceEmails.getWorkspaceEmail({ id: call.params.id }, call.options);
      return { body: { data: presentEmailHistoryItem(answer.email!) } };
    },
  });
}
