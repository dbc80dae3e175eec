// The metrics of an event consumer: how late events arrive (now minus their creation) and what
// became of each delivery.
import { counterIn, histogramIn, metricsRegistry, type MetricsRegistry } from './registry.js';

export type EventOutcome = 'applied' | 'duplicate' | 'failed';

export interface EventConsumerMetrics {
  /** The event changed the consumer's state; `createdAt` is when its producer created it (lag is not observed without one). */
  applied(createdAt: Date | undefined): void;
  /** The event had been applied before (a redelivery or a re-published copy). */
  duplicate(): void;
  /** The handler failed (the event comes again) or dropped an event it can never apply. */
  failed(): void;
}

export interface EventConsumerLabels {
  /** The durable consumer's name, e.g. `billing-usage`. */
  consumer: string;
  stream: string;
}

/** Records `event_consumer_lag_seconds` and `event_consumer_events_total` for one consumer. */
export function eventConsumerMetrics(
  labels: EventConsumerLabels,
  options: { registry?: MetricsRegistry; clock?: () => number } = {},
): EventConsumerMetrics {
  const registry = options.registry ?? metricsRegistry;
  const clock = options.clock ?? Date.now;
  const lag = histogramIn(registry, {
    name: 'event_consumer_lag_seconds',
    help: 'Time from the creation of an event to its application by a consumer, by consumer and stream.',
    labelNames: ['consumer', 'stream'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  });
  const events = counterIn(registry, {
    name: 'event_consumer_events_total',
    help: 'Event deliveries handled, by consumer and outcome (applied, duplicate, failed).',
    labelNames: ['consumer', 'outcome'] as const,
  });
  const count = (outcome: EventOutcome) => events.inc({ consumer: labels.consumer, outcome });
  return {
    applied: (createdAt) => {
      count('applied');
      if (createdAt === undefined || Number.isNaN(createdAt.getTime())) return;
      // Clocks of producer and consumer hosts may disagree by a little; a negative lag is none.
      lag.observe({ consumer: labels.consumer, stream: labels.stream }, Math.max(0, clock() - createdAt.getTime()) / 1000);
    },
    duplicate: () => count('duplicate'),
    failed: () => count('failed'),
  };
}
