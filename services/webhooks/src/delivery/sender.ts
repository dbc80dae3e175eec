// One attempt to send one event to one endpoint: the body POSTed as it is stored, signed by every
// secret that still signs, through the egress guard with a short timeout; what came of it.
import { performance } from 'node:perf_hooks';
import { EgressRefused, guardedRequest, RequestFailed, type EgressPolicy } from '@voice/runtime/egress';
import type { Logger } from '@voice/runtime/logger';
import { signatureHeader } from '@voice/contracts/webhooks';
import { signatureHeaderValue } from '../domain/signature.js';
import type { AttemptRecord } from '../store/store.js';

export interface SendOptions {
  policy: EgressPolicy;
  timeoutMs: number;
  logger: Logger;
}

export interface Outgoing {
  url: string;
  body: string;
  eventId: string;
  eventType: string;
  /** Plaintext secrets, newest first. */
  secrets: readonly string[];
}

export async function sendEvent(outgoing: Outgoing, at: Date, options: SendOptions): Promise<AttemptRecord> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await guardedRequest({
      method: 'POST',
      url: outgoing.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Voice-Webhooks/1',
        'voice-event-id': outgoing.eventId,
        'voice-event-type': outgoing.eventType,
        [signatureHeader.toLowerCase()]: signatureHeaderValue(outgoing.secrets, at, outgoing.body),
      },
      body: outgoing.body,
      timeoutMs: options.timeoutMs,
      policy: options.policy,
      // A redirect is an answer that is not 2xx: followed, it would carry the signed event elsewhere.
      redirect: 'manual',
      maxBodyBytes: 1024,
      keepAlive: true,
      logger: options.logger,
    });
    return { at: at.toISOString(), statusCode: response.status, latencyMs: latency(), error: null };
  } catch (error) {
    if (error instanceof EgressRefused) return { at: at.toISOString(), statusCode: null, latencyMs: latency(), error: 'destination_forbidden' };
    if (error instanceof RequestFailed) return { at: at.toISOString(), statusCode: null, latencyMs: latency(), error: error.code };
    options.logger.warn('webhook delivery failed unexpectedly', { error });
    return { at: at.toISOString(), statusCode: null, latencyMs: latency(), error: 'unreachable' };
  }
}

export const isDelivered = (attempt: AttemptRecord): boolean => attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
