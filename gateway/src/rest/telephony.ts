// Phone numbers, carrier connections, A2P campaigns, the suppression list and SMS (SPEC.md 4.2,
// API.md 6). Bodies are validated with the telephony service's own schemas.
import { emptyBodySchema, maxPageLimit, pageQuerySchema } from '@voice/runtime/validation';
import {
  addSuppressionBodySchema,
  buyNumberBodySchema,
  createCampaignBodySchema,
  createConnectionBodySchema,
  importNumberBodySchema,
  listMessagesQuerySchema,
  searchNumbersQuerySchema,
  sendSmsBodySchema,
  updateConnectionBodySchema,
  updateNumberBodySchema,
} from '@voice/contracts/telephony';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { a2pCampaignSchema, availableNumberSchema, carrierConnectionSchema, connectionTestSchema, phoneNumberSchema, smsMessageSchema, suppressionSchema } from '@voice/contracts/telephony';
import type { RestRouter } from './router.js';
import type { RestDeps } from './deps.js';
import { replayHeaders, toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import {
  presentA2pCampaign,
  presentAvailableNumber,
  presentCarrierConnection,
  presentConnectionTest,
  presentSuppression,
  } from './telephony-presenters.js';
import { presentPhoneNumber, presentSmsMessage } from '@voice/contracts/telephony-presenters';
import { pageOf } from './validate.js';

export function registerTelephonyRoutes(rest: RestRouter, deps: RestDeps): void {
  const telephony = deps.clients.telephony;
  const read = 'phone_numbers:read';
  const write = 'phone_numbers:write';
  const toolset = 'telephony';

  rest.operation({
    method: 'get',
    path: '/phone-numbers',
    scope: read,
    query: pageQuerySchema,
    doc: {
      id: 'listPhoneNumbers',
      summary: 'The workspace’s phone numbers',
      toolset,
      response: listOfSchema(phoneNumberSchema),
      mcp: { tool: 'list_phone_numbers', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await telephony.listNumbers({ page }, call.options);
      return { body: listOf(answer.numbers.map(presentPhoneNumber), page, answer.total) };
    },
  });

  // Registered before /phone-numbers/:id so "available" is never read as an id.
  rest.operation({
    method: 'get',
    path: '/phone-numbers/available',
    scope: read,
    query: searchNumbersQuerySchema,
    doc: {
      id: 'searchPhoneNumbers',
      summary: 'Numbers the platform’s carrier sells now in a country (and area code), with their monthly price',
      description: `Up to ${maxPageLimit} offers are considered (numbers some workspace holds left out); \`total\` counts them and pages slice that one answer.`,
      toolset,
      response: listOfSchema(availableNumberSchema),
      mcp: { tool: 'search_phone_numbers', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      // The carrier is asked for as many offers as one page can hold, so `total` counts every
      // offer there is (up to that many), and pages slice one consistent answer.
      const answer = await telephony.searchAvailableNumbers({ country: call.query.country, areaCode: call.query.area_code, limit: maxPageLimit }, call.options);
      const numbers = answer.numbers.slice(page.offset, page.offset + page.limit);
      return { body: listOf(numbers.map(presentAvailableNumber), page, answer.numbers.length) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/phone-numbers',
    scope: write,
    body: buyNumberBodySchema,
    doc: {
      id: 'buyPhoneNumber',
      summary: 'Buy a number the marketplace offers',
      description:
        'The first month (`monthly_credits`) is charged at once; a wallet whose available balance cannot pay it is 409 `conflict` and nothing is bought. ' +
        'Later months are charged on each anniversary of the purchase (ledger kind `number.monthly`, once per number and month). ' +
        'A month the wallet cannot pay makes the number `past_due`; unless it is paid within the grace period (7 days by default) the number is released at `release_at`. ' +
        'A number some workspace holds, or one the carrier no longer offers, is 409 `conflict`; when billing cannot be reached the answer is 503 `telephony_unavailable` and nothing is bought or charged. ' +
        'The number is bought with its voice URL and call status callback pointing at the platform, so the calls it receives reach the assistant it is given (PATCH `assistant_id`).',
      toolset,
      status: 201,
      response: dataOf(phoneNumberSchema),
      mcp: { tool: 'buy_phone_number', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await telephony.buyNumber({ number: call.body.number }, call.options);
      return { body: { data: presentPhoneNumber(answer.number!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/phone-numbers/import',
    scope: write,
    body: importNumberBodySchema,
    doc: {
      id: 'importPhoneNumber',
      summary: 'Add a number held by the carrier account of one of the workspace’s carrier connections',
      description:
        'The number gets the capabilities the carrier reports. A voice-capable number’s voice URL and call status callback are set on the carrier account to the platform’s webhooks of this connection, so its calls reach the assistant it is given (PATCH `assistant_id`); they replace what the account had. ' +
        'A `carrier_connection_id` that names no connection of the workspace is 404 `not_found`.',
      toolset,
      errors: ['NotFound'],
      status: 201,
      response: dataOf(phoneNumberSchema),
    },
    handle: async (call) => {
      const answer = await telephony.importNumber({ number: call.body.number, carrierConnectionId: call.body.carrier_connection_id }, call.options);
      return { body: { data: presentPhoneNumber(answer.number!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/phone-numbers/:id',
    scope: read,
    doc: { id: 'getPhoneNumber', summary: 'A phone number of the workspace', toolset, response: dataOf(phoneNumberSchema) },
    handle: async (call) => {
      const answer = await telephony.getNumber({ id: call.params.id }, call.options);
      return { body: { data: presentPhoneNumber(answer.number!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/phone-numbers/:id',
    scope: write,
    body: updateNumberBodySchema,
    doc: {
      id: 'updatePhoneNumber',
      summary: 'Assign a number to an assistant or A2P campaign, rename it, or switch outbound SMS',
      description: 'Only the fields sent change; `null` clears `assistant_id` or `a2p_campaign_id`. `assistant_id` must name an assistant of the workspace (400 naming the field otherwise); while it does, the assistant cannot be deleted.',
      toolset,
      response: dataOf(phoneNumberSchema),
      mcp: { tool: 'assign_phone_number', annotations: toolHints.update },
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await telephony.updateNumber(
        {
          id: call.params.id,
          smsOutboundEnabled: body.sms_outbound_enabled,
          name: body.name,
          assistantId: body.assistant_id ?? undefined,
          clearAssistantId: body.assistant_id === null,
          a2pCampaignId: body.a2p_campaign_id ?? undefined,
          clearA2pCampaignId: body.a2p_campaign_id === null,
        },
        call.options,
      );
      return { body: { data: presentPhoneNumber(answer.number!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/phone-numbers/:id',
    scope: write,
    doc: {
      id: 'releasePhoneNumber',
      summary: 'Release a number: a bought one goes back to the carrier',
      description: 'When the carrier cannot be reached the answer is 503 and nothing changes.',
      toolset,
      response: deletedSchema,
      mcp: { tool: 'release_phone_number', annotations: toolHints.remove },
    },
    handle: async (call) => {
      const id = call.params.id;
      await telephony.releaseNumber({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/carrier-connections',
    scope: read,
    query: pageQuerySchema,
    doc: { id: 'listCarrierConnections', summary: 'The workspace’s own carrier accounts, credentials masked', toolset, response: listOfSchema(carrierConnectionSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await telephony.listCarrierConnections({ page }, call.options);
      return { body: listOf(answer.connections.map(presentCarrierConnection), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/carrier-connections',
    scope: write,
    body: createConnectionBodySchema,
    doc: {
      id: 'createCarrierConnection',
      summary: 'Connect a carrier account (Twilio-compatible or the sandbox)',
      description: 'The credentials are write-only and stored encrypted; answers show them masked.',
      toolset,
      status: 201,
      response: dataOf(carrierConnectionSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await telephony.createCarrierConnection(
        { name: body.name, provider: body.provider, baseUrl: body.base_url, accountSid: body.account_sid, authToken: body.auth_token },
        call.options,
      );
      return { body: { data: presentCarrierConnection(answer.connection!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/carrier-connections/:id',
    scope: read,
    doc: { id: 'getCarrierConnection', summary: 'A carrier connection, credentials masked', toolset, response: dataOf(carrierConnectionSchema) },
    handle: async (call) => {
      const answer = await telephony.getCarrierConnection({ id: call.params.id }, call.options);
      return { body: { data: presentCarrierConnection(answer.connection!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/carrier-connections/:id',
    scope: write,
    body: updateConnectionBodySchema,
    doc: {
      id: 'updateCarrierConnection',
      summary: 'Rename a carrier connection or change its base URL or credentials',
      description: 'Only the fields sent change; sending the mask `•••` back keeps the stored credential.',
      toolset,
      response: dataOf(carrierConnectionSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await telephony.updateCarrierConnection(
        { id: call.params.id, name: body.name, baseUrl: body.base_url, accountSid: body.account_sid, authToken: body.auth_token },
        call.options,
      );
      return { body: { data: presentCarrierConnection(answer.connection!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/carrier-connections/:id',
    scope: write,
    doc: { id: 'deleteCarrierConnection', summary: 'Delete a carrier connection', toolset, response: deletedSchema },
    handle: async (call) => {
      const id = call.params.id;
      await telephony.deleteCarrierConnection({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/carrier-connections/:id/test',
    scope: write,
    body: emptyBodySchema,
    doc: {
      id: 'testCarrierConnection',
      summary: 'Check that the carrier accepts the connection’s credentials',
      description: 'Takes no fields. A refusal is a 200 answer with `ok: false` and the `failure`.',
      toolset,
      response: dataOf(connectionTestSchema),
    },
    handle: async (call) => {
      const answer = await telephony.testCarrierConnection({ id: call.params.id }, call.options);
      return { body: { data: presentConnectionTest(answer) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/a2p-campaigns',
    scope: read,
    query: pageQuerySchema,
    doc: { id: 'listA2pCampaigns', summary: 'The workspace’s A2P 10DLC campaigns', toolset, response: listOfSchema(a2pCampaignSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await telephony.listA2pCampaigns({ page }, call.options);
      return { body: listOf(answer.campaigns.map(presentA2pCampaign), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/a2p-campaigns',
    scope: write,
    body: createCampaignBodySchema,
    doc: {
      id: 'createA2pCampaign',
      summary: 'Register an A2P 10DLC campaign with a carrier connection for vetting',
      description: 'The campaign starts `pending`; the carrier approves or rejects it later. A `carrier_connection_id` that names no connection of the workspace is 404 `not_found`.',
      toolset,
      errors: ['NotFound'],
      status: 201,
      response: dataOf(a2pCampaignSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await telephony.createA2pCampaign(
        {
          name: body.name,
          carrierConnectionId: body.carrier_connection_id,
          useCase: body.use_case,
          description: body.description,
          sampleMessages: body.sample_messages,
        },
        call.options,
      );
      return { body: { data: presentA2pCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/a2p-campaigns/:id',
    scope: read,
    doc: { id: 'getA2pCampaign', summary: 'An A2P 10DLC campaign with its vetting status', toolset, response: dataOf(a2pCampaignSchema) },
    handle: async (call) => {
      const answer = await telephony.getA2pCampaign({ id: call.params.id }, call.options);
      return { body: { data: presentA2pCampaign(answer.campaign!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/suppression',
    scope: 'leads:read',
    query: pageQuerySchema,
    doc: { id: 'listSuppressions', summary: 'The do-not-contact list', toolset, response: listOfSchema(suppressionSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await telephony.listSuppressions({ page }, call.options);
      return { body: listOf(answer.suppressions.map(presentSuppression), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/suppression',
    scope: 'leads:write',
    body: addSuppressionBodySchema,
    doc: {
      id: 'addSuppression',
      summary: 'Add a number to the do-not-contact list',
      description: 'Messages to a suppressed number are refused with 403 `destination_forbidden`.',
      toolset,
      status: 201,
      response: dataOf(suppressionSchema),
    },
    handle: async (call) => {
      const answer = await telephony.addSuppression({ number: call.body.number, reason: call.body.reason ?? '' }, call.options);
      return { body: { data: presentSuppression(answer.suppression!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/suppression/:id',
    scope: 'leads:write',
    doc: { id: 'removeSuppression', summary: 'Take a number off the do-not-contact list', toolset, response: deletedSchema },
    handle: async (call) => {
      const id = call.params.id;
      await telephony.removeSuppression({ id }, call.options);
      return { body: deletedOf(id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/sms/send',
    scope: write,
    body: sendSmsBodySchema,
    idempotent: true,
    doc: {
      id: 'sendSms',
      summary: 'Send an SMS from one of the workspace’s numbers; it is charged when the carrier takes it',
      description:
        'Answers 202 with the message `queued`; a `from` that is not one of the workspace’s numbers is 404 `not_found`. Its price is held against the wallet’s available balance before the carrier is asked (`available` in `GET /balance` shows it) and charged once the carrier takes the message; ' +
        'a wallet that cannot cover it is 409, and when the platform cannot hold the price the answer is `503 telephony_unavailable` with `Retry-After` and nothing is sent. ' +
        'With an `Idempotency-Key` a retry within 24 h answers 202 with the first response (the message as accepted) and `Idempotent-Replayed: true`, whatever changed since (409 while the first attempt is still with the carrier); a failed attempt does not bind the key.',
      toolset,
      errors: ['NotFound'],
      status: 202,
      response: dataOf(smsMessageSchema),
      mcp: { tool: 'send_sms', annotations: toolHints.create },
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await telephony.sendSms({ fromNumberId: body.from_number_id, to: body.to, body: body.body, idempotencyKey: call.idempotencyKey }, call.options);
      return { body: { data: presentSmsMessage(answer.message!) }, headers: replayHeaders(answer.replayed) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/sms/messages',
    scope: read,
    query: listMessagesQuerySchema,
    doc: { id: 'listSmsMessages', summary: 'The workspace’s SMS messages, newest first, optionally by status', toolset, response: listOfSchema(smsMessageSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await telephony.listMessages({ page, status: call.query.status }, call.options);
      return { body: listOf(answer.messages.map(presentSmsMessage), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/sms/messages/:id',
    scope: read,
    doc: { id: 'getSmsMessage', summary: 'An SMS message with its delivery status', toolset, response: dataOf(smsMessageSchema) },
    handle: async (call) => {
      const answer = await telephony.getMessage({ id: call.params.id }, call.options);
      return { body: { data: presentSmsMessage(answer.message!) } };
    },
  });
}
