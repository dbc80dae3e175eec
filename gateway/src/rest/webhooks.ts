// /webhooks and /settings/webhooks (issue 18): endpoints that receive the workspace's events signed,
// their deliveries (with a retry of one), a ping, the secret's rotation, and the balance.low threshold.
import { z } from 'zod';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import {
  createWebhookBodySchema,
  deliveryStatusQuery,
  secretRotationOverlapHours,
  updateWebhookBodySchema,
  updateWebhookSettingsBodySchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookSettingsSchema,
  webhookRetryWindowDays,
} from '@voice/contracts/webhooks';
import { emptyBodySchema, pageQueryFields } from '@voice/runtime/validation';
import type { RestDeps } from './deps.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';
import { presentWebhookDelivery, presentWebhookEndpoint, presentWebhookSettings } from './webhooks-presenters.js';
import { signatureDescription } from '../openapi/webhooks.js';

const listDeliveriesQuerySchema = z.strictObject({ status: deliveryStatusQuery, ...pageQueryFields });

export function registerWebhookRoutes(rest: RestRouter, deps: RestDeps): void {
  const webhooks = deps.clients.webhooks;

  rest.operation({
    method: 'get',
    path: '/webhooks',
    scope: 'settings:read',
    query: z.strictObject(pageQueryFields),
    doc: { id: 'listWebhooks', summary: 'The workspace’s webhook endpoints', toolset: 'settings', response: listOfSchema(webhookEndpointSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await webhooks.listEndpoints({ page }, call.options);
      return { body: listOf(answer.endpoints.map(presentWebhookEndpoint), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/webhooks',
    scope: 'settings:write',
    body: createWebhookBodySchema,
    doc: {
      id: 'createWebhook',
      summary: 'Add an endpoint that receives the workspace’s events of the given types',
      description: `The answer carries the signing secret \`secret\` (\`whsec_…\`) this once; afterwards only \`secret_hint\` is shown. The URL must be https and resolve only to publicly reachable addresses (400 otherwise) unless the operator set \`VOICE_EGRESS_ALLOW_PRIVATE\`.\n\n${signatureDescription}`,
      toolset: 'settings',
      status: 201,
      response: dataOf(webhookEndpointWithSecretSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await webhooks.createEndpoint(
        { url: body.url, description: body.description ?? '', eventTypes: body.event_types, enabled: body.enabled },
        call.options,
      );
      return { body: { data: { ...presentWebhookEndpoint(answer.endpoint!), secret: answer.secret } } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/webhooks/:id',
    scope: 'settings:read',
    doc: { id: 'getWebhook', summary: 'A webhook endpoint, its secret only as a hint', toolset: 'settings', response: dataOf(webhookEndpointSchema) },
    handle: async (call) => ({ body: { data: presentWebhookEndpoint((await webhooks.getEndpoint({ id: call.params.id }, call.options)).endpoint!) } }),
  });

  rest.operation({
    method: 'patch',
    path: '/webhooks/:id',
    scope: 'settings:write',
    body: updateWebhookBodySchema,
    doc: {
      id: 'updateWebhook',
      summary: 'Change a webhook endpoint',
      description:
        'Only the fields sent change. Disabling an endpoint fails its pending deliveries; enabling one the platform disabled (`disabled_reason: failing`) starts its failure clock again.',
      toolset: 'settings',
      response: dataOf(webhookEndpointSchema),
    },
    handle: async (call) => {
      const { body } = call;
      const answer = await webhooks.updateEndpoint(
        {
          id: call.params.id,
          url: body.url,
          description: body.description,
          eventTypes: body.event_types ?? [],
          hasEventTypes: body.event_types !== undefined,
          enabled: body.enabled,
        },
        call.options,
      );
      return { body: { data: presentWebhookEndpoint(answer.endpoint!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/webhooks/:id',
    scope: 'settings:write',
    doc: { id: 'deleteWebhook', summary: 'Delete a webhook endpoint and its delivery log', toolset: 'settings', response: deletedSchema },
    handle: async (call) => {
      await webhooks.deleteEndpoint({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/webhooks/:id/rotate-secret',
    scope: 'settings:write',
    body: emptyBodySchema,
    doc: {
      id: 'rotateWebhookSecret',
      summary: 'Replace the endpoint’s signing secret',
      description:
        `The answer carries the new \`secret\` this once. For ${secretRotationOverlapHours} hours (until \`previous_secret_expires_at\`) every delivery is signed by both secrets, a \`v1\` each, so receivers can switch without missing an event.`,
      toolset: 'settings',
      response: dataOf(webhookEndpointWithSecretSchema),
    },
    handle: async (call) => {
      const answer = await webhooks.rotateSecret({ id: call.params.id }, call.options);
      return { body: { data: { ...presentWebhookEndpoint(answer.endpoint!), secret: answer.secret } } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/webhooks/:id/test',
    scope: 'settings:write',
    body: emptyBodySchema,
    doc: {
      id: 'testWebhook',
      summary: 'Send a ping event to the endpoint',
      description: 'Queues a `ping` event for the endpoint, whatever event types it wants, and answers its delivery (202); follow it in the delivery log. A disabled endpoint is 409.',
      toolset: 'settings',
      status: 202,
      response: dataOf(webhookDeliverySchema),
    },
    handle: async (call) => ({ body: { data: presentWebhookDelivery((await webhooks.testEndpoint({ id: call.params.id }, call.options)).delivery!) } }),
  });

  rest.operation({
    method: 'get',
    path: '/webhooks/:id/deliveries',
    scope: 'settings:read',
    query: listDeliveriesQuerySchema,
    doc: {
      id: 'listWebhookDeliveries',
      summary: 'The endpoint’s deliveries, newest first, with every attempt',
      description:
        `Each delivery is one event on its way to this endpoint: \`pending\` while it is sent or retried (\`next_attempt_at\`), \`delivered\` once the endpoint answered 2xx, \`failed\` when it was given up (${webhookRetryWindowDays} days of failures) or the endpoint was disabled. Failed attempts are retried with exponential backoff and jitter.`,
      toolset: 'settings',
      response: listOfSchema(webhookDeliverySchema),
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await webhooks.listDeliveries({ endpointId: call.params.id, page, status: call.query.status }, call.options);
      return { body: listOf(answer.deliveries.map(presentWebhookDelivery), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/webhooks/:id/deliveries/:delivery_id/retry',
    scope: 'settings:write',
    body: emptyBodySchema,
    doc: {
      id: 'retryWebhookDelivery',
      summary: 'Send a delivery again now',
      description: 'Whatever its status, the delivery is due at once (202) with the same event id, so a receiver that saw it already can recognise it. A disabled endpoint is 409.',
      toolset: 'settings',
      status: 202,
      response: dataOf(webhookDeliverySchema),
    },
    handle: async (call) => {
      const answer = await webhooks.retryDelivery({ endpointId: call.params.id, deliveryId: call.params.delivery_id }, call.options);
      return { body: { data: presentWebhookDelivery(answer.delivery!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/settings/webhooks',
    scope: 'settings:read',
    doc: { id: 'getWebhookSettings', summary: 'The workspace’s webhook settings: the balance.low threshold', toolset: 'settings', response: dataOf(webhookSettingsSchema) },
    handle: async (call) => ({ body: { data: presentWebhookSettings((await webhooks.getSettings({}, call.options)).settings!) } }),
  });

  rest.operation({
    method: 'patch',
    path: '/settings/webhooks',
    scope: 'settings:write',
    body: updateWebhookSettingsBodySchema,
    doc: {
      id: 'updateWebhookSettings',
      summary: 'Change the webhook settings',
      description: 'A `balance.low` event goes to the endpoints that want it once each time the available credits (balance less open holds) fall below `balance_low_threshold`; `null` turns it off.',
      toolset: 'settings',
      response: dataOf(webhookSettingsSchema),
    },
    handle: async (call) => {
      const threshold = call.body.balance_low_threshold;
      const answer = await webhooks.updateSettings({ balanceLowThreshold: threshold === undefined ? undefined : (threshold ?? '') }, call.options);
      return { body: { data: presentWebhookSettings(answer.settings!) } };
    },
  });
}
