// Records -> proto messages: endpoints without their secrets (a masked hint of the newest only),
// deliveries with every attempt, settings with the threshold as exact credits.
import { create } from '@bufbuild/protobuf';
import { formatCredits } from '@voice/runtime/amounts';
import { toTimestamp } from '@voice/runtime/time';
import {
  DeliverySchema,
  EndpointSchema,
  SettingsSchema,
  type Delivery,
  type Endpoint,
  type Settings,
} from '@voice/proto/voice/webhooks/v1/webhooks';
import type { DeliveryRecord, EndpointRecord, WebhookSettingsRecord } from './store/store.js';

const optionalTime = (iso: string | null) => (iso === null ? undefined : toTimestamp(iso));

export const presentEndpoint = (record: EndpointRecord, now: Date): Endpoint => {
  const previous = record.secrets.slice(1).find((secret) => secret.expiresAt !== null && Date.parse(secret.expiresAt) > now.getTime());
  return create(EndpointSchema, {
    id: record.id,
    url: record.url,
    description: record.description,
    eventTypes: record.eventTypes,
    enabled: record.enabled,
    secretHint: record.secrets[0]?.hint ?? '',
    previousSecretExpiresAt: optionalTime(previous?.expiresAt ?? null),
    failingSince: optionalTime(record.failingSince),
    disabledReason: record.disabledReason ?? '',
    createdAt: toTimestamp(record.createdAt),
    updatedAt: toTimestamp(record.updatedAt),
  });
};

export const presentDelivery = (record: DeliveryRecord): Delivery =>
  create(DeliverySchema, {
    id: record.id,
    endpointId: record.endpointId,
    eventId: record.eventId,
    eventType: record.eventType,
    status: record.status,
    attempts: record.attempts.map((attempt) => ({
      at: toTimestamp(attempt.at),
      statusCode: attempt.statusCode ?? undefined,
      latencyMs: attempt.latencyMs,
      error: attempt.error ?? '',
    })),
    nextAttemptAt: optionalTime(record.status === 'pending' ? record.nextAttemptAt : null),
    createdAt: toTimestamp(record.createdAt),
    deliveredAt: optionalTime(record.deliveredAt),
  });

export const presentSettings = (record: WebhookSettingsRecord | undefined): Settings =>
  create(SettingsSchema, {
    balanceLowThreshold: record?.balanceLowThresholdUnits == null ? '' : formatCredits(record.balanceLowThresholdUnits),
  });
