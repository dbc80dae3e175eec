// /sip-trunks (issue 16; API.md 10, scopes sip_trunks:*): a workspace's SIP trunks, the numbers
// routed through them, and the OPTIONS check of a trunk's address.
import { emptyBodySchema, pageQuerySchema } from '@voice/runtime/validation';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import {
  createSipTrunkBodySchema,
  maxNumbersPerSipTrunk,
  maxSipTrunksPerWorkspace,
  sipTrunkCheckSchema,
  sipTrunkSchema,
  updateSipTrunkBodySchema,
} from '@voice/contracts/telephony';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import { presentSipTrunk, presentSipTrunkCheck } from './sip-trunks-presenters.js';
import { pageOf } from './validate.js';

const routingRules =
  `A number goes through one trunk at most (at most ${maxNumbersPerSipTrunk} per trunk): an id that names no number of the workspace is 404 \`not_found\`, ` +
  'a number routed through another trunk is 409 `conflict`.';

export function registerSipTrunkRoutes(rest: RestRouter, deps: RestDeps): void {
  const trunks = deps.clients.sipTrunks;
  const read = 'sip_trunks:read';
  const write = 'sip_trunks:write';
  const toolset = 'telephony';

  rest.operation({
    method: 'get',
    path: '/sip-trunks',
    scope: read,
    query: pageQuerySchema,
    doc: {
      id: 'listSipTrunks',
      summary: 'The workspace’s SIP trunks, newest first, passwords masked',
      toolset,
      response: listOfSchema(sipTrunkSchema),
      mcp: { tool: 'list_sip_trunks', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await trunks.listSipTrunks({ page }, call.options);
      return { body: listOf(answer.trunks.map(presentSipTrunk), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/sip-trunks',
    scope: write,
    body: createSipTrunkBodySchema,
    doc: {
      id: 'createSipTrunk',
      summary: 'Add a SIP trunk and route numbers of the workspace through it',
      description:
        `The password is write-only: stored encrypted and answered only as the mask \`•••\`. A workspace holds at most ${maxSipTrunksPerWorkspace} trunks (409 \`conflict\` beyond). ` +
        routingRules,
      toolset,
      errors: ['NotFound'],
      status: 201,
      response: dataOf(sipTrunkSchema),
      mcp: { tool: 'create_sip_trunk', annotations: toolHints.create },
    },
    handle: async (call) => {
      const { number_ids: numberIds, ...settings } = call.body;
      const answer = await trunks.createSipTrunk({ ...settings, numberIds }, call.options);
      return { body: { data: presentSipTrunk(answer.trunk!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/sip-trunks/:id',
    scope: read,
    doc: {
      id: 'getSipTrunk',
      summary: 'A SIP trunk with the numbers routed through it, password masked',
      toolset,
      response: dataOf(sipTrunkSchema),
      mcp: { tool: 'get_sip_trunk', annotations: toolHints.read },
    },
    handle: async (call) => {
      const answer = await trunks.getSipTrunk({ id: call.params.id }, call.options);
      return { body: { data: presentSipTrunk(answer.trunk!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/sip-trunks/:id',
    scope: write,
    body: updateSipTrunkBodySchema,
    doc: {
      id: 'updateSipTrunk',
      summary: 'Change a SIP trunk or the numbers routed through it',
      description:
        'Only the fields sent change; a `password` alone replaces the stored one, the mask `•••` keeps it, an empty `username` removes the authentication. What the change leaves must hold together (400 otherwise): a `sips:` address needs `tls`, a user name a password and a password a user name. `number_ids` replaces the routed numbers (`[]` routes none). ' +
        routingRules,
      toolset,
      errors: ['NotFound'],
      response: dataOf(sipTrunkSchema),
    },
    handle: async (call) => {
      const { number_ids: numberIds, ...settings } = call.body;
      const answer = await trunks.updateSipTrunk(
        { id: call.params.id, ...settings, numberIds: numberIds ?? [], replaceNumberIds: numberIds !== undefined },
        call.options,
      );
      return { body: { data: presentSipTrunk(answer.trunk!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/sip-trunks/:id',
    scope: write,
    doc: {
      id: 'deleteSipTrunk',
      summary: 'Delete a SIP trunk no number is routed through',
      description: 'While numbers are routed through the trunk the answer is 409 `conflict` and nothing changes: take them off it first (`PATCH` with `number_ids`).',
      toolset,
      response: deletedSchema,
      mcp: { tool: 'delete_sip_trunk', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const id = call.params.id;
      await trunks.deleteSipTrunk({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/sip-trunks/:id/check',
    scope: write,
    body: emptyBodySchema,
    doc: {
      id: 'checkSipTrunk',
      summary: 'Send the trunk a SIP OPTIONS request and report its answer',
      description:
        'Takes no fields. One OPTIONS request (RFC 3261) goes to the trunk’s address over its transport (over UDP it is sent again after 0.5, 1, 2 s, ...); the first final response is reported with its status, reason phrase and round trip, whatever the status (a 401 or 503 is an answer too). A 401 or 407 Digest (MD5) challenge is answered once with the trunk’s `authentication`, and the answer to that is reported: 200 means the trunk accepted the credentials, a second challenge that it refused them. ' +
        'No answer within the platform’s check timeout (5 s by default) is `reachable: false` with the `failure`. The address is resolved with A/AAAA records (no SRV or NAPTR look-up). ' +
        'An address that is private, loopback or otherwise reserved is refused with 403 `destination_forbidden` and nothing is sent.',
      toolset,
      response: dataOf(sipTrunkCheckSchema),
    },
    handle: async (call) => {
      const answer = await trunks.checkSipTrunk({ id: call.params.id }, call.options);
      return { body: { data: presentSipTrunkCheck(answer) } };
    },
  });
}
