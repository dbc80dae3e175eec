// /caller-ids (issue 16; API.md 10, scopes phone_numbers:*): numbers a workspace holds elsewhere,
// verified by a code sent there, which its calls may then show as `from`.
import { pageQuerySchema } from '@voice/runtime/validation';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import {
  callerIdSchema,
  createCallerIdBodySchema,
  defaultCodeSendLimits,
  maxVerificationAttempts,
  verificationCodeLength,
  verificationCodeLifetimeMinutes,
  verifyCallerIdBodySchema,
} from '@voice/contracts/telephony';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { presentCallerId } from './caller-ids-presenters.js';
import { deletedOf, listOf } from './presenters.js';
import { pageOf } from './validate.js';

const { perNumber, perWorkspace } = defaultCodeSendLimits;

export function registerCallerIdRoutes(rest: RestRouter, deps: RestDeps): void {
  const callerIds = deps.clients.callerIds;
  const read = 'phone_numbers:read';
  const write = 'phone_numbers:write';
  const toolset = 'telephony';

  rest.operation({
    method: 'get',
    path: '/caller-ids',
    scope: read,
    query: pageQuerySchema,
    doc: { id: 'listCallerIds', summary: 'The workspace’s caller IDs, newest first', toolset, response: listOfSchema(callerIdSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await callerIds.listCallerIds({ page }, call.options);
      return { body: listOf(answer.callerIds.map(presentCallerId), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/caller-ids',
    scope: write,
    body: createCallerIdBodySchema,
    doc: {
      id: 'createCallerId',
      summary: 'Add a number the workspace holds elsewhere and send it a verification code',
      description:
        `Answers 201 with the caller ID \`pending\` once a ${verificationCodeLength}-digit code was sent to the number through the platform’s carrier, by SMS (\`method: sms\`, the default) or said twice, digit by digit, in a call (\`method: call\`); the code works for ${verificationCodeLifetimeMinutes} minutes, and the same attempts and expiry rules apply either way. ` +
        'The SMS is charged like any SMS (its price is held first: a wallet that cannot cover it is 409 and nothing is sent; when the platform cannot hold it the answer is 503 `telephony_unavailable`); the call is free, as carriers’ own caller ID validation calls are. A destination the carrier refuses is 403 `destination_forbidden`, a carrier that cannot be reached 503 `telephony_unavailable`; no caller ID is left behind either way. ' +
        'A number that is a phone number on this platform is 409 `conflict` (use it as `from` directly); so is a number that already is a caller ID of the workspace, pending with a valid code or verified. A failed caller ID of the number, or one whose code expired, is replaced. ' +
        `Codes are limited, so no one can make the platform text or call a phone again and again: a number gets at most ${perNumber.codes} codes per ${perNumber.windowSeconds / 3600} hours whichever workspaces ask, and a workspace sends at most ${perWorkspace.codes} per ${perWorkspace.windowSeconds / 60} minutes (the platform’s defaults; its operator may set others). ` +
        'Windows are fixed (a 24-hour one runs from midnight UTC). Every request that gets past validation and the platform-number check counts, whether or not its code ends up sent, and deleting a caller ID gives nothing back. ' +
        'Beyond a limit the answer is 429 `rate_limited` with `Retry-After` (seconds) and a message naming the limit and when to retry; nothing is sent, charged or stored. ' +
        'On the sandbox carrier, GET /sandbox/caller-ids/{id}/verification-call shows what the called phone heard.',
      toolset,
      status: 201,
      response: dataOf(callerIdSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await callerIds.createCallerId({ phoneNumber: body.phone_number, label: body.label, method: body.method }, call.options);
      return { body: { data: presentCallerId(answer.callerId!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/caller-ids/:id',
    scope: read,
    doc: { id: 'getCallerId', summary: 'A caller ID and where its verification stands', toolset, response: dataOf(callerIdSchema) },
    handle: async (call) => {
      const answer = await callerIds.getCallerId({ id: call.params.id }, call.options);
      return { body: { data: presentCallerId(answer.callerId!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/caller-ids/:id/verify',
    scope: write,
    body: verifyCallerIdBodySchema,
    doc: {
      id: 'verifyCallerId',
      summary: 'Check the code sent to a pending caller ID',
      description:
        `The right code verifies the caller ID (200). A wrong one is 400 naming \`code\` with the attempts left; the ${maxVerificationAttempts}th wrong code fails the caller ID. ` +
        'A caller ID that is verified already, failed, or whose code expired is 409 `conflict` (POST /caller-ids again for a new code). Of concurrent checks with the right code one verifies, the others are 409.',
      toolset,
      response: dataOf(callerIdSchema),
    },
    handle: async (call) => {
      const answer = await callerIds.verifyCallerId({ id: call.params.id, code: call.body.code }, call.options);
      return { body: { data: presentCallerId(answer.callerId!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/caller-ids/:id',
    scope: write,
    doc: { id: 'deleteCallerId', summary: 'Delete a caller ID; calls can no longer show it', toolset, response: deletedSchema },
    handle: async (call) => {
      const id = call.params.id;
      await callerIds.deleteCallerId({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });
}
