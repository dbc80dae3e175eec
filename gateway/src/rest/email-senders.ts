// /email-senders (issue 16): the addresses a workspace may send e-mail from (post-call summaries),
// each verified by a confirmation link e-mailed to it.
import { z } from 'zod';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { createEmailSenderBodySchema, emailSenderSchema } from '@voice/contracts/history';
import { pageQueryFields } from '@voice/runtime/validation';
import type { RestDeps } from './deps.js';
import { presentEmailSender } from './history-presenters.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';

export function registerEmailSenderRoutes(rest: RestRouter, deps: RestDeps): void {
  const senders = deps.clients.emailSenders;
  const toolset = 'settings';

  rest.operation({
    method: 'get',
    path: '/email-senders',
    scope: 'settings:read',
    query: z.strictObject(pageQueryFields),
    doc: {
      id: 'listEmailSenders',
      summary: 'The addresses the workspace may send e-mail from, oldest first',
      toolset,
      response: listOfSchema(emailSenderSchema),
      mcp: { tool: 'list_email_senders', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await senders.listEmailSenders({ page }, call.options);
      return { body: listOf(answer.senders.map(presentEmailSender), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/email-senders',
    scope: 'settings:write',
    body: createEmailSenderBodySchema,
    doc: {
      id: 'createEmailSender',
      summary: 'Add an address to send e-mail from; a confirmation link is e-mailed to it',
      description:
        'The sender is `pending` until someone who reads the address opens the link e-mailed to it and confirms; only then may an assistant’s analysis plan send summaries from it. The link works once, for 24 hours by default (`VOICE_EMAIL_SENDER_CONFIRMATION_HOURS`). An address the workspace has already added, pending or verified, is 409: delete the sender and add it again for a new link.',
      toolset,
      status: 201,
      response: dataOf(emailSenderSchema),
    },
    handle: async (call) => {
      const answer = await senders.createEmailSender({ address: call.body.address, name: call.body.name ?? '' }, call.options);
      return { body: { data: presentEmailSender(answer.sender!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/email-senders/:id',
    scope: 'settings:write',
    doc: {
      id: 'deleteEmailSender',
      summary: 'Remove an e-mail sender',
      description: 'Its pending link stops working. Summaries of assistants that still name it are recorded `failed` instead of being sent.',
      toolset,
      response: deletedSchema,
    },
    handle: async (call) => {
      await senders.deleteEmailSender({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });
}
