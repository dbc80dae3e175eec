// /callbacks (issue 17; API.md 10, scopes campaigns:*): a lead, or a caller's number with a campaign,
// called back by the campaign's dialer at the time the person asked for. SPEC.md 4.3 names no MCP
// tool for callbacks, so these operations have none.
import type { JsonObject } from '@bufbuild/protobuf';
import { callbackGraceHours, callbackHours, callbackSchema, createCallbackBodySchema, listCallbacksQuerySchema, maxCallbackDaysAhead } from '@voice/contracts/callbacks';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import type { RestDeps } from './deps.js';
import { presentCallback } from './callbacks-presenters.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';

const firingRules = [
  `The campaign’s dialer places the call at \`at\`, never before, with the campaign’s assistant and one of its numbers, and the callback’s \`variables\` (over the lead’s own). It is placed once: claiming it is a conditional write, and its call has one idempotency key.`,
  `At its time: a **running** or **completed** campaign calls (a promised callback is kept after the campaign’s last lead); a **draft**, **scheduled** or **paused** one holds it until it runs again; a **stopped** or deleted one fails it (\`campaign_stopped\`, \`campaign_deleted\`). A lead removed since fails it (\`lead_removed\`); a number on the suppression list by then fails it (\`suppressed\`). The campaign’s calling window does not apply (the person chose the time), but the calling hours (${callbackHours.start} to ${callbackHours.end} in the person’s time zone) do. The campaign’s pacing counts it like a lead (\`max_concurrent\`, \`calls_per_minute\`), and a lead’s callback waits while the campaign is calling that lead.`,
  `The call’s own hold checks the wallet: a call it cannot fund is tried again every 5 minutes (\`attempts\` counts the tries). A callback held back more than ${callbackGraceHours} hours past its time fails as \`expired\`.`,
  `When the call ends the callback is \`completed\` (answered) or \`failed\` (\`no_answer\`, \`busy\`, \`voicemail\` (a voicemail box answered), \`call_failed\`); a lead’s callback adds its call to the lead’s \`call_ids\`, and an answered one completes the lead. A callback is one call: schedule another to try again.`,
].join('\n\n');

export function registerCallbackRoutes(rest: RestRouter, deps: RestDeps): void {
  const { callbacks } = deps.clients;

  rest.operation({
    method: 'post',
    path: '/callbacks',
    scope: 'campaigns:write',
    body: createCallbackBodySchema,
    doc: {
      id: 'createCallback',
      summary: 'Schedule a callback: a lead, or a caller’s number with a campaign, called at a time',
      description: [
        `Give \`lead_id\` (the lead’s campaign calls) or \`phone\` with \`campaign_id\`. \`at\` must be in the future, at most ${maxCallbackDaysAhead} days ahead, and within the calling hours, ${callbackHours.start} to ${callbackHours.end} in the person’s time zone (the lead’s \`time_zone\`, else the body’s \`time_zone\`, else the zone the number names when it names one, else the campaign window’s): 400 otherwise. A lead or campaign that is not the workspace’s is 404; a removed lead is 409 \`conflict\`; a number on the suppression list (or a \`do_not_call\` lead) is 403 \`destination_forbidden\`. The campaign may be in any state when the callback is made; what happens at its time is below.`,
        firingRules,
      ].join('\n\n'),
      toolset: 'campaigns',
      status: 201,
      response: dataOf(callbackSchema),
      errors: ['NotFound'],
    },
    handle: async (call) => {
      const answer = await callbacks.createCallback({ body: call.body as unknown as JsonObject }, call.options);
      return { body: { data: presentCallback(answer.callback!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/callbacks',
    scope: 'campaigns:read',
    query: listCallbacksQuerySchema,
    doc: {
      id: 'listCallbacks',
      summary: 'The workspace’s callbacks, newest first; by status, campaign or lead',
      description: 'A `campaign_id` or `lead_id` that names nothing in the workspace is 404.',
      toolset: 'campaigns',
      response: listOfSchema(callbackSchema),
      errors: ['NotFound'],
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const { status, campaign_id: campaignId, lead_id: leadId } = call.query;
      const answer = await callbacks.listCallbacks({ status: status ?? '', campaignId: campaignId ?? '', leadId: leadId ?? '', page }, call.options);
      return { body: listOf(answer.callbacks.map(presentCallback), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/callbacks/:id',
    scope: 'campaigns:read',
    doc: { id: 'getCallback', summary: 'A callback: its time, status and call', description: firingRules, toolset: 'campaigns', response: dataOf(callbackSchema) },
    handle: async (call) => {
      const answer = await callbacks.getCallback({ id: call.params.id }, call.options);
      return { body: { data: presentCallback(answer.callback!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/callbacks/:id',
    scope: 'campaigns:write',
    doc: {
      id: 'cancelCallback',
      summary: 'Cancel a scheduled callback',
      description:
        'The callback stays, with status `cancelled` (`GET /callbacks?status=cancelled`), and is never called; cancelling a cancelled callback answers the same. Once it is `dialing`, `completed` or `failed` it is 409 `conflict`: a cancel racing the dialer’s claim at its time either wins (the call is never placed) or is refused.',
      toolset: 'campaigns',
      response: deletedSchema,
    },
    handle: async (call) => {
      await callbacks.cancelCallback({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });
}
