// /sandbox (issue 16): the sandbox carrier's test surface, sandbox-only. The sandbox reaches no real
// phone, so what the world beyond a carrier would show or do is here: what a called phone heard (a
// caller ID's code) and a caller calling one of the workspace's numbers.
import type { JsonObject } from '@bufbuild/protobuf';
import { callSchema } from '@voice/contracts/calls';
import { presentCall } from '@voice/contracts/calls-presenters';
import { dataOf } from '@voice/contracts/responses';
import { sandboxVerificationCallSchema, simulateInboundCallBodySchema } from '@voice/contracts/telephony';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { presentVerificationCall } from './sandbox-presenters.js';

export function registerSandboxRoutes(rest: RestRouter, deps: RestDeps): void {
  const sandbox = deps.clients.sandbox;

  rest.operation({
    method: 'get',
    path: '/sandbox/caller-ids/:id/verification-call',
    scope: 'phone_numbers:write',
    doc: {
      id: 'getSandboxVerificationCall',
      summary: 'Sandbox only: what the phone heard in a caller ID’s verification call',
      description:
        'The sandbox carrier reaches no real phone, so it shows here what the called number heard: the code, as the call said it. ' +
        'It answers only on a platform whose carrier is the sandbox, for a caller ID created with `method: call` whose call was answered (the sandbox’s magic busy, no-answer and failing numbers answer nothing); anything else is 404, as is another workspace’s caller ID. ' +
        'Reading the code is the power to verify, so this needs `phone_numbers:write`. The sandbox keeps what it said in memory: a restart of the platform forgets it.',
      toolset: 'telephony',
      response: dataOf(sandboxVerificationCallSchema),
    },
    handle: async (call) => {
      const answer = await sandbox.getVerificationCall({ callerId: call.params.id }, call.options);
      return { body: { data: presentVerificationCall(answer.call!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/sandbox/inbound-calls',
    scope: 'calls:write',
    body: simulateInboundCallBodySchema,
    doc: {
      id: 'simulateSandboxInboundCall',
      summary: 'Sandbox only: a caller calls one of the workspace’s numbers',
      description:
        'Plays what a carrier does when someone dials the number: the call is handed to the assistant the number is given to exactly as a real inbound call is (the same checks, the same funds held), then answered and its media connected to the voice runtime, which plays the assistant’s first message and then `metadata.sandbox_script` (what the caller says, tools the assistant calls, the analysis) or its default script. ' +
        'Answers 201 with the inbound call (`ringing`, or already further along); follow it with GET /calls/{id}. It is charged like any call when it ends. ' +
        '`to` that is no number of the workspace is 404; a number that is not voice-capable, is given to no assistant, or is carried by a real carrier (a platform on a real carrier, or a number imported through a Twilio-compatible connection) is 409 `telephony_configuration_error`. ' +
        'A call the platform refuses as it would refuse a real caller (the assistant cannot take calls, the wallet cannot cover a minute) is 409 `conflict` with the reason; when the calls service cannot be reached the answer is 503 `telephony_unavailable` and nothing is charged.',
      toolset: 'calls',
      status: 201,
      response: dataOf(callSchema),
      errors: ['NotFound'],
    },
    handle: async (call) => {
      const { callId } = await sandbox.simulateInboundCall({ from: call.body.from, to: call.body.to, metadata: call.body.metadata as JsonObject | undefined }, call.options);
      const answer = await deps.clients.calls.getCall({ id: callId }, call.options);
      return { body: { data: presentCall(answer.call!) } };
    },
  });
}
