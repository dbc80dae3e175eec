// Phone numbers, carrier connections, A2P campaigns, the suppression list and SMS (SPEC.md 4.2,
// API.md 6). Bodies are validated here with the telephony service's own schemas.
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
} from '@voice/telephony/schema';
import { maxPageLimit, pageQuerySchema } from '@voice/runtime';
import type { RestRouter } from './router.js';
import { callOptions, type RestDeps } from './deps.js';
import { deletedOf, listOf } from './presenters.js';
import {
  presentA2pCampaign,
  presentAvailableNumber,
  presentCarrierConnection,
  presentPhoneNumber,
  presentSmsMessage,
  presentSuppression,
} from './telephony-presenters.js';
import { idempotencyKeyOf, pageOf, parseBody, parseQuery } from './validate.js';

export function registerTelephonyRoutes(rest: RestRouter, deps: RestDeps): void {
  const telephony = deps.clients.telephony;
  const read = { scope: 'phone_numbers:read' };
  const write = { scope: 'phone_numbers:write' };

  rest.route('get', '/phone-numbers', read, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await telephony.listNumbers({ page }, callOptions(deps, res));
    res.json(listOf(answer.numbers.map(presentPhoneNumber), page, answer.total));
  });

  // Registered before /phone-numbers/:id so "available" is never read as an id.
  rest.route('get', '/phone-numbers/available', read, async (req, res) => {
    const query = parseQuery(searchNumbersQuerySchema, req);
    const page = pageOf(query);
    // The carrier is asked for as many offers as one page can hold, so `total` counts every
    // offer there is (up to that many), and pages slice one consistent answer.
    const answer = await telephony.searchAvailableNumbers(
      { country: query.country, areaCode: query.area_code, limit: maxPageLimit },
      callOptions(deps, res),
    );
    const numbers = answer.numbers.slice(page.offset, page.offset + page.limit);
    res.json(listOf(numbers.map(presentAvailableNumber), page, answer.numbers.length));
  });

  rest.route('post', '/phone-numbers', write, async (req, res) => {
    const body = parseBody(buyNumberBodySchema, req.body);
    const answer = await telephony.buyNumber({ number: body.number }, callOptions(deps, res));
    res.status(201).json({ data: presentPhoneNumber(answer.number!) });
  });

  rest.route('post', '/phone-numbers/import', write, async (req, res) => {
    const body = parseBody(importNumberBodySchema, req.body);
    const answer = await telephony.importNumber({ number: body.number, carrierConnectionId: body.carrier_connection_id }, callOptions(deps, res));
    res.status(201).json({ data: presentPhoneNumber(answer.number!) });
  });

  rest.route('get', '/phone-numbers/:id', read, async (req, res) => {
    const answer = await telephony.getNumber({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentPhoneNumber(answer.number!) });
  });

  rest.route('patch', '/phone-numbers/:id', write, async (req, res) => {
    const body = parseBody(updateNumberBodySchema, req.body);
    const answer = await telephony.updateNumber(
      {
        id: String(req.params.id),
        smsOutboundEnabled: body.sms_outbound_enabled,
        name: body.name,
        assistantId: body.assistant_id ?? undefined,
        clearAssistantId: body.assistant_id === null,
        a2pCampaignId: body.a2p_campaign_id ?? undefined,
        clearA2pCampaignId: body.a2p_campaign_id === null,
      },
      callOptions(deps, res),
    );
    res.json({ data: presentPhoneNumber(answer.number!) });
  });

  rest.route('delete', '/phone-numbers/:id', write, async (req, res) => {
    const id = String(req.params.id);
    await telephony.releaseNumber({ id }, callOptions(deps, res));
    res.json(deletedOf(id));
  });

  rest.route('get', '/carrier-connections', read, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await telephony.listCarrierConnections({ page }, callOptions(deps, res));
    res.json(listOf(answer.connections.map(presentCarrierConnection), page, answer.total));
  });

  rest.route('post', '/carrier-connections', write, async (req, res) => {
    const body = parseBody(createConnectionBodySchema, req.body);
    const answer = await telephony.createCarrierConnection(
      { name: body.name, provider: body.provider, baseUrl: body.base_url, accountSid: body.account_sid, authToken: body.auth_token },
      callOptions(deps, res),
    );
    res.status(201).json({ data: presentCarrierConnection(answer.connection!) });
  });

  rest.route('get', '/carrier-connections/:id', read, async (req, res) => {
    const answer = await telephony.getCarrierConnection({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentCarrierConnection(answer.connection!) });
  });

  rest.route('patch', '/carrier-connections/:id', write, async (req, res) => {
    const body = parseBody(updateConnectionBodySchema, req.body);
    const answer = await telephony.updateCarrierConnection(
      { id: String(req.params.id), name: body.name, baseUrl: body.base_url, accountSid: body.account_sid, authToken: body.auth_token },
      callOptions(deps, res),
    );
    res.json({ data: presentCarrierConnection(answer.connection!) });
  });

  rest.route('delete', '/carrier-connections/:id', write, async (req, res) => {
    const id = String(req.params.id);
    await telephony.deleteCarrierConnection({ id }, callOptions(deps, res));
    res.json(deletedOf(id));
  });

  rest.route('post', '/carrier-connections/:id/test', write, async (req, res) => {
    const answer = await telephony.testCarrierConnection({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({
      data: {
        ok: answer.ok,
        failure: answer.ok ? null : { code: answer.failure, message: answer.message },
        duration_ms: answer.durationMs,
      },
    });
  });

  rest.route('get', '/a2p-campaigns', read, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await telephony.listA2pCampaigns({ page }, callOptions(deps, res));
    res.json(listOf(answer.campaigns.map(presentA2pCampaign), page, answer.total));
  });

  rest.route('post', '/a2p-campaigns', write, async (req, res) => {
    const body = parseBody(createCampaignBodySchema, req.body);
    const answer = await telephony.createA2pCampaign(
      {
        name: body.name,
        carrierConnectionId: body.carrier_connection_id,
        useCase: body.use_case,
        description: body.description,
        sampleMessages: body.sample_messages,
      },
      callOptions(deps, res),
    );
    res.status(201).json({ data: presentA2pCampaign(answer.campaign!) });
  });

  rest.route('get', '/a2p-campaigns/:id', read, async (req, res) => {
    const answer = await telephony.getA2pCampaign({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentA2pCampaign(answer.campaign!) });
  });

  rest.route('get', '/suppression', { scope: 'leads:read' }, async (req, res) => {
    const page = pageOf(parseQuery(pageQuerySchema, req));
    const answer = await telephony.listSuppressions({ page }, callOptions(deps, res));
    res.json(listOf(answer.suppressions.map(presentSuppression), page, answer.total));
  });

  rest.route('post', '/suppression', { scope: 'leads:write' }, async (req, res) => {
    const body = parseBody(addSuppressionBodySchema, req.body);
    const answer = await telephony.addSuppression({ number: body.number, reason: body.reason ?? '' }, callOptions(deps, res));
    res.status(201).json({ data: presentSuppression(answer.suppression!) });
  });

  rest.route('delete', '/suppression/:id', { scope: 'leads:write' }, async (req, res) => {
    const id = String(req.params.id);
    await telephony.removeSuppression({ id }, callOptions(deps, res));
    res.json(deletedOf(id));
  });

  rest.route('post', '/sms/send', write, async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req);
    const body = parseBody(sendSmsBodySchema, req.body);
    const answer = await telephony.sendSms(
      { fromNumberId: body.from_number_id, to: body.to, body: body.body, idempotencyKey },
      callOptions(deps, res),
    );
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({ data: presentSmsMessage(answer.message!) });
  });

  rest.route('get', '/sms/messages', read, async (req, res) => {
    const query = parseQuery(listMessagesQuerySchema, req);
    const page = pageOf(query);
    const answer = await telephony.listMessages({ page, status: query.status }, callOptions(deps, res));
    res.json(listOf(answer.messages.map(presentSmsMessage), page, answer.total));
  });

  rest.route('get', '/sms/messages/:id', read, async (req, res) => {
    const answer = await telephony.getMessage({ id: String(req.params.id) }, callOptions(deps, res));
    res.json({ data: presentSmsMessage(answer.message!) });
  });
}
