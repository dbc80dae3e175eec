// How long each kind of record the platform only keeps for a while is kept, and how often the
// services' pruning jobs look for records past it. Every service reads the same variables and
// uses those of the records it owns.
import { readInt, type Env } from './env.js';
import { eventStreamDefaults } from '../events/event-stream.js';
import { idempotencyWindowMs } from '../idempotency.js';

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

export interface RetentionConfig {
  /** How often each service's pruning job runs (a run that fills its batch is followed by another at once). */
  periodMs: number;
  /** Outbox events, counted from their publication. */
  publishedEventsMs: number;
  /**
   * What recognises a redelivered event (processed-event ids, settled holds), counted from the
   * event's processing or the hold's settlement: longer than a stream keeps an event, or a
   * redelivery could be applied twice.
   */
  deduplicationMs: number;
  /** Idempotency-Key claims, counted from the first request; never shorter than the 24 h they bind. */
  idempotencyMs: number;
  /** OAuth codes and tokens counted from their expiry, grants from the expiry of their last token. */
  oauthMs: number;
  /** Mail the outbox sent or gave up, and the sandbox's `.eml` files, counted from then. */
  mailMs: number;
  /** Caller IDs that failed, or whose code expired unused, counted from then. */
  unverifiedCallerIdsMs: number;
}

/** The stream's longest redelivery, in whole days, rounded up. */
const streamDays = Math.ceil(eventStreamDefaults.maxAgeMs / dayMs);

export function readRetentionConfig(env: Env): RetentionConfig {
  return {
    periodMs: readInt(env, 'VOICE_RETENTION_CHECK_SECONDS', 3600, { min: 1, max: 7 * 24 * 3600 }) * 1000,
    publishedEventsMs: readInt(env, 'VOICE_RETENTION_PUBLISHED_EVENTS_HOURS', 24, { min: 1, max: 24 * 3650 }) * hourMs,
    deduplicationMs: readInt(env, 'VOICE_RETENTION_DEDUPLICATION_DAYS', streamDays + 5, { min: streamDays + 1, max: 3650 }) * dayMs,
    idempotencyMs: readInt(env, 'VOICE_RETENTION_IDEMPOTENCY_HOURS', idempotencyWindowMs / hourMs, { min: idempotencyWindowMs / hourMs, max: 24 * 3650 }) * hourMs,
    oauthMs: readInt(env, 'VOICE_RETENTION_OAUTH_DAYS', 7, { min: 0, max: 3650 }) * dayMs,
    mailMs: readInt(env, 'VOICE_RETENTION_MAIL_DAYS', 30, { min: 0, max: 3650 }) * dayMs,
    unverifiedCallerIdsMs: readInt(env, 'VOICE_RETENTION_UNVERIFIED_CALLER_IDS_DAYS', 7, { min: 0, max: 3650 }) * dayMs,
  };
}
