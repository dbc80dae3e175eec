// /campaigns with start and stop (issue 17; API.md 10): outbound campaigns of an assistant over the
// workspace's leads, their settings, state machine and progress.
import type { JsonObject } from '@bufbuild/protobuf';
import { campaignSchema, campaignStatsSchema, createCampaignBodySchema, listCampaignsQuerySchema, updateCampaignBodySchema } from '@voice/contracts/campaigns';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { emptyBodySchema } from '@voice/runtime/validation';
import type { RestDeps } from './deps.js';
import { presentCampaign, presentCampaignStats } from './campaigns-presenters.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';

const statesDescription =
  'A campaign is `draft` when created (`scheduled` when created with a `schedule`); `running` after `POST /campaigns/{id}/start`; `stopped` after `POST /campaigns/{id}/stop`; `paused` and `completed` are set by the dialer (the wallet could not hold a call, named by `paused_reason` `insufficient_funds`; every lead is done); a paused campaign resumes with `POST /campaigns/{id}/start`.\n\n' +
  'Schedules: a campaign with `schedule` (`cron`, five fields or a nickname such as `@daily`, read in `time_zone`; 400 naming `schedule.cron` or `schedule.time_zone` when either is not valid, or the expression never occurs) starts on its own at each occurrence, exactly as `POST /campaigns/{id}/start` does (a targeted segment’s leads copied in, the dialer checking windows, pacing and suppression); `next_run_at` is the next occurrence. An occurrence that finds the campaign `running`, or without a lead left to call, is skipped (and logged); the schedule goes on. A `draft` given a schedule (on create or PATCH) becomes `scheduled`, and a `scheduled` one whose schedule is removed (`schedule: null`) a `draft` again; a `scheduled` campaign also starts by hand, stops only once running (409 `conflict` before), and is deleted as a draft is. A `stopped`, `paused` or `completed` campaign keeps its state when its schedule is set or removed, and with a schedule starts again at the next occurrence; a running one takes no schedule change (409 `conflict`, as for any setting but `name`, `pacing` and `window`). Occurrences are checked every few seconds by one dialer at a time; each fires once, however many dialers run; occurrences missed while no dialer ran fire once, late.';

const progressDescription =
  '`progress.calls` is read from the calls themselves when asked (the calls service counts the calls the dialer placed for the campaign, each also in `GET /calls` with `metadata.campaign_id`), never from a copy: `placed` every call (each attempt of a lead is one), `connected` those answered, `active` those not ended, then the ended ones by end state (`voicemail` the answered ones a voicemail box took, end reason `voicemail`, which `completed` leaves out). ' +
  '`minutes` are the minutes billed, each call’s answered seconds rounded as it was charged (every started minute unless the operator configured exact seconds); `minutes_charged` and `credits_charged` are what billing charged for them (included minutes first, then credits), the sums of the calls’ own fields, counted once a call is charged, shortly after it ends. ' +
  '`GET /campaigns` shows `progress.leads` only (`progress.calls` null): counting every listed campaign’s calls would ask the calls service once per campaign.';

export function registerCampaignRoutes(rest: RestRouter, deps: RestDeps): void {
  const { campaigns } = deps.clients;

  rest.operation({
    method: 'get',
    path: '/campaigns',
    scope: 'campaigns:read',
    query: listCampaignsQuerySchema,
    doc: {
      id: 'listCampaigns',
      summary: 'The workspace’s campaigns, newest first; `status` filters',
      toolset: 'campaigns',
      response: listOfSchema(campaignSchema),
      mcp: { tool: 'list_campaigns', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await campaigns.listCampaigns({ status: call.query.status ?? '', page }, call.options);
      return { body: listOf(answer.campaigns.map(presentCampaign), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/campaigns',
    scope: 'campaigns:write',
    body: createCampaignBodySchema,
    doc: {
      id: 'createCampaign',
      summary: 'Create a campaign (in `draft`)',
      description: `\`assistant_id\` must name an assistant of the workspace and each of \`from_number_ids\` a voice-capable phone number of it; \`segment_id\`, when given, a segment of it (400 naming the field otherwise). Without \`window\` calls are placed Monday to Friday 09:00-17:00 (\`time_zone\` UTC for leads without a zone of their own); without \`pacing\` at most 5 at once and 30 a minute; without \`retry\` a lead is called at most 3 times, 60 minutes apart, after \`no_answer\` or \`busy\`. ${statesDescription}`,
      toolset: 'campaigns',
      status: 201,
      response: dataOf(campaignSchema),
      mcp: { tool: 'create_campaign', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await campaigns.createCampaign({ settings: call.body as unknown as JsonObject }, call.options);
      return { body: { data: presentCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/campaigns/:id',
    scope: 'campaigns:read',
    doc: {
      id: 'getCampaign',
      summary: 'A campaign with its settings, state and progress (its leads by status, its calls, minutes and credits)',
      description: progressDescription,
      toolset: 'campaigns',
      response: dataOf(campaignSchema),
      mcp: { tool: 'get_campaign', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await campaigns.getCampaign({ id: call.params.id }, call.options);
      return { body: { data: presentCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/campaigns/:id/stats',
    scope: 'campaigns:read',
    doc: {
      id: 'getCampaignStats',
      summary: 'A campaign’s progress alone: its leads by status, its calls, minutes and credits',
      description: progressDescription,
      toolset: 'campaigns',
      response: dataOf(campaignStatsSchema),
      mcp: { tool: 'get_campaign_stats', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await campaigns.getCampaign({ id: call.params.id }, call.options);
      return { body: { data: presentCampaignStats(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/campaigns/:id',
    scope: 'campaigns:write',
    body: updateCampaignBodySchema,
    doc: {
      id: 'updateCampaign',
      summary: 'Change a campaign’s settings',
      description:
        'Each top-level setting sent replaces the stored one whole (send all of `window` to change its end); settings not sent stay. `expected_revision` must be the campaign’s current `revision` (409 `revision_conflict` otherwise). A running campaign takes changes of `name`, `pacing` and `window` only: any other setting (`schedule` included) is 409 `conflict` until it is stopped. References are checked as on create. Sending `schedule` sets it (`null` removes it) and recomputes `next_run_at`: a `draft` becomes `scheduled`, a `scheduled` campaign without a schedule a `draft` again (see `createCampaign` on schedules).',
      toolset: 'campaigns',
      response: dataOf(campaignSchema),
      mcp: { tool: 'update_campaign', annotations: toolHints.update },
    },
    handle: async (call) => {
      const { expected_revision: expectedRevision, ...changes } = call.body;
      const answer = await campaigns.updateCampaign({ id: call.params.id, expectedRevision, changes: changes as unknown as JsonObject }, call.options);
      return { body: { data: presentCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/campaigns/:id',
    scope: 'campaigns:write',
    doc: {
      id: 'deleteCampaign',
      summary: 'Delete a campaign and its leads',
      description: 'A running campaign is 409 `conflict`: stop it first.',
      toolset: 'campaigns',
      response: deletedSchema,
      mcp: { tool: 'delete_campaign', annotations: toolHints.remove },
    },
    handle: async (call) => {
      await campaigns.deleteCampaign({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/campaigns/:id/start',
    scope: 'campaigns:write',
    body: emptyBodySchema,
    doc: {
      id: 'startCampaign',
      summary: 'Start (or resume) a campaign: it becomes `running`',
      description:
        'A campaign that targets a segment first gets the segment’s matching leads of other campaigns (one per number, not removed or `do_not_call`) as new `pending` leads. 409 `conflict` when it is already running, or when it has no lead left to call (`pending`, `retry_scheduled` or `calling`).\n\n' +
        'The dialer then calls each lead once per attempt, and at the moment of each call checks again: the campaign is still running, the lead’s calling window is open in its own time zone (the window’s `time_zone` without one; outside it the lead waits, `pending`, for the window to open), `pacing.max_concurrent` and `pacing.calls_per_minute` hold, and its number is not on the suppression list (a suppressed lead becomes `do_not_call`, never called). Each call is a normal call (`GET /calls`) from one of `from_number_ids` in turn, with `metadata` `campaign_id`, `lead_id` and `attempt`; it is charged like any call, and one the platform refuses (a number no longer the workspace’s, an assistant gone) fails its lead. A call the wallet cannot hold for its first minute fails nothing: its lead goes back to `pending` with its attempt unspent, the campaign becomes `paused` with `paused_reason` `insufficient_funds` and dials no more (calls in progress end and settle); after adding funds, start it again to resume: it calls the leads still `pending` or `retry_scheduled`, and `paused_reason` returns to null. When a call ends the lead becomes `completed` (answered), `retry_scheduled` (an outcome `retry.on` names, with attempts left; called again `retry.delay_minutes` later) or `failed`. A call a voicemail box answered (the call’s `end_reason` `voicemail`, after the assistant’s `voicemail` setting hung up or left its message) is the outcome `voicemail`: retried while `retry.on` names it and attempts are left, then `failed` (a person was wanted); when `retry.on` does not name it the lead is `completed`; the campaign becomes `completed` when no lead is `pending`, `calling` or `retry_scheduled`.',
      toolset: 'campaigns',
      response: dataOf(campaignSchema),
      mcp: { tool: 'start_campaign', annotations: toolHints.update },
    },
    handle: async (call) => {
      const answer = await campaigns.startCampaign({ id: call.params.id }, call.options);
      return { body: { data: presentCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/campaigns/:id/stop',
    scope: 'campaigns:write',
    body: emptyBodySchema,
    doc: {
      id: 'stopCampaign',
      summary: 'Stop a running campaign: it becomes `stopped` and places no new calls',
      description:
        'Stopping a campaign that is not running is 409 `conflict` (SPEC.md 3), a `paused` one included: it dials nothing already; start resumes it, delete removes it. No new call starts once it is stopped (a call being placed at that instant may still start); calls in progress end on their own and settle their leads, a retry they earn waits for the next start. A stopped campaign can be started again: it calls its leads still `pending` or `retry_scheduled`.',
      toolset: 'campaigns',
      response: dataOf(campaignSchema),
      mcp: { tool: 'stop_campaign', annotations: toolHints.update },
    },
    handle: async (call) => {
      const answer = await campaigns.stopCampaign({ id: call.params.id }, call.options);
      return { body: { data: presentCampaign(answer.campaign!) } };
    },
  });
}
