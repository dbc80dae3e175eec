// /calls (issue 16; API.md 10): placing a call with an assistant, following it and reading what it
// became. The calls service checks every precondition in order, each with its own error.
import type { JsonObject } from '@bufbuild/protobuf';
import { callInputLimits, defaultCallCreditsPerMinute, callSchema, maxCallSeconds, createCallBodySchema, listCallsQuerySchema, recordingLinkSchema } from '@voice/contracts/calls';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { defaultRecordingUrlTtlSeconds } from '../config.js';
import type { RecordingDownloadUrls } from '../recordings/download-urls.js';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { replayHeaders, toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import { callDirectionEnumOf, callStatusEnumOf, presentCall } from '@voice/contracts/calls-presenters';
import { pageOf, timestampOf } from './validate.js';

export function registerCallRoutes(rest: RestRouter, deps: RestDeps & { recordingUrls: RecordingDownloadUrls }): void {
  const calls = deps.clients.calls;
  const toolset = 'calls';

  rest.operation({
    method: 'post',
    path: '/calls',
    scope: 'calls:write',
    body: createCallBodySchema,
    idempotent: true,
    doc: {
      id: 'createCall',
      summary: 'Call a number with an assistant',
      description:
        'Checked in this order, each with its own error, before anything is dialled: the body (400); the assistant exists in the workspace (404) and the workspace’s plan includes its model, transcriber and voice (403); ' +
        '`from` is a phone number of the workspace (404) that can carry voice calls (409 `telephony_configuration_error`); `to` is not on the workspace’s suppression list (403 `destination_forbidden`); ' +
        `the funds: the call’s longest possible length (the assistant’s \`max_duration_seconds\`, at most ${maxCallSeconds / 3600} hours: the longest call a carrier carries) is held in whole minutes, included minutes first and the rest in credits at the per-minute rate ` +
        `(${defaultCallCreditsPerMinute} credits a minute unless the operator configured another). A wallet that covers less holds what it covers and the call ends when that is used; one that cannot cover a single minute is 409 \`conflict\`. ` +
        'The call then answers 201 `queued` and moves on to `ringing`, `in_progress` and an end state; when it ends, its minutes are charged once (per started minute unless the operator configured exact seconds) and the rest of the hold goes back. ' +
        'A carrier that cannot be reached is 503 `telephony_unavailable` and nothing is charged. ' +
        `\`variables\`: at most ${callInputLimits.variables}; \`metadata\`: at most ${callInputLimits.metadataBytes} bytes as JSON. ` +
        'With an `Idempotency-Key` a retry answers 201 with the first call and `Idempotent-Replayed: true`.',
      toolset,
      errors: ['NotFound'],
      status: 201,
      response: dataOf(callSchema),
      mcp: { tool: 'make_call', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await calls.createCall(
        {
          assistantId: call.body.assistant_id,
          from: call.body.from,
          to: call.body.to,
          variables: call.body.variables as JsonObject | undefined,
          metadata: call.body.metadata as JsonObject | undefined,
          idempotencyKey: call.idempotencyKey,
          workspacePlan: call.auth.workspace.plan,
        },
        call.options,
      );
      return { body: { data: presentCall(answer.call!) }, headers: replayHeaders(answer.replayed) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/calls',
    scope: 'calls:read',
    query: listCallsQuerySchema,
    doc: {
      id: 'listCalls',
      summary: 'The workspace’s calls, newest first, filtered by status, direction, assistant, number and creation time',
      toolset,
      response: listOfSchema(callSchema),
      mcp: { tool: 'list_calls', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const { query } = call;
      const answer = await calls.listCalls(
        {
          page,
          status: query.status === undefined ? undefined : callStatusEnumOf(query.status),
          direction: query.direction === undefined ? undefined : callDirectionEnumOf(query.direction),
          assistantId: query.assistant_id ?? '',
          number: query.number ?? '',
          createdFrom: timestampOf(query.created_from),
          createdTo: timestampOf(query.created_to),
        },
        call.options,
      );
      return { body: listOf(answer.calls.map(presentCall), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/calls/:id',
    scope: 'calls:read',
    doc: {
      id: 'getCall',
      summary: 'A call: its status, transcript, summary, analysis and events',
      description: 'The events are the call’s public events, oldest first; internal operational events (component fallbacks, session errors, usage bookings) are never listed.',
      toolset,
      response: dataOf(callSchema),
      mcp: { tool: 'get_call', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await calls.getCall({ id: call.params.id }, call.options);
      return { body: { data: presentCall(answer.call!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/calls/:id/recording',
    scope: 'calls:read',
    doc: {
      id: 'getCallRecording',
      summary: 'A time-limited address to download a call’s recording',
      description:
        `The recording (audio/wav) is downloaded from \`url\` without a credential until \`expires_at\` (${defaultRecordingUrlTtlSeconds / 60} minutes unless the operator configured another time); byte ranges are served (\`Range\`, 206). ` +
        'An altered or expired address answers 403 `forbidden`, and a recording removed meanwhile 404. A call without a recording is 404.',
      toolset,
      response: dataOf(recordingLinkSchema),
    },
    handle: async (call) => {
      await calls.getCallRecording({ callId: call.params.id }, call.options);
      const link = deps.recordingUrls.sign(deps.publicUrl(), call.auth.workspace.id, call.params.id);
      return { body: { data: { url: link.url, expires_at: link.expiresAt.toISOString() } } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/calls/:id/recording',
    scope: 'calls:write',
    doc: {
      id: 'deleteCallRecording',
      summary: 'Remove a call’s recording for good',
      description: 'The recording’s file is deleted and `has_recording` becomes false; a call without a recording is 404. The answer names the call.',
      toolset,
      response: deletedSchema,
    },
    handle: async (call) => {
      await calls.deleteCallRecording({ callId: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });
}
