// The webhooks service's answers as public JSON: endpoints with a masked secret hint only (the
// secret itself once, at creation and rotation), deliveries with every attempt, and the settings.
import type { z } from 'zod';
import { toIso } from '@voice/runtime/time';
import type { Delivery, Endpoint, Settings } from '@voice/proto/voice/webhooks/v1/webhooks';
import {
  deliveryAttemptErrors,
  deliveryStatuses,
  endpointDisabledReasons,
  pingEventType,
  webhookEventTypes,
  type webhookDeliverySchema,
  type webhookEndpointSchema,
  type webhookSettingsSchema,
} from '@voice/contracts/webhooks';
import { oneOf } from '@voice/contracts/responses';

export const presentWebhookEndpoint = (endpoint: Endpoint): z.infer<typeof webhookEndpointSchema> => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  event_types: endpoint.eventTypes.map((type) => oneOf(webhookEventTypes, type)),
  enabled: endpoint.enabled,
  secret_hint: endpoint.secretHint,
  previous_secret_expires_at: toIso(endpoint.previousSecretExpiresAt),
  failing_since: toIso(endpoint.failingSince),
  disabled_reason: endpoint.disabledReason ? oneOf(endpointDisabledReasons, endpoint.disabledReason) : null,
  created_at: toIso(endpoint.createdAt)!,
  updated_at: toIso(endpoint.updatedAt)!,
});

export const presentWebhookDelivery = (delivery: Delivery): z.infer<typeof webhookDeliverySchema> => ({
  id: delivery.id,
  endpoint_id: delivery.endpointId,
  event_id: delivery.eventId,
  event_type: oneOf([...webhookEventTypes, pingEventType] as const, delivery.eventType),
  status: oneOf(deliveryStatuses, delivery.status),
  attempts: delivery.attempts.map((attempt) => ({
    at: toIso(attempt.at)!,
    status_code: attempt.statusCode ?? null,
    latency_ms: attempt.latencyMs,
    error: attempt.error ? oneOf(deliveryAttemptErrors, attempt.error) : null,
  })),
  next_attempt_at: toIso(delivery.nextAttemptAt),
  created_at: toIso(delivery.createdAt)!,
  delivered_at: toIso(delivery.deliveredAt),
});

export const presentWebhookSettings = (settings: Settings): z.infer<typeof webhookSettingsSchema> => ({
  balance_low_threshold: settings.balanceLowThreshold || null,
});
