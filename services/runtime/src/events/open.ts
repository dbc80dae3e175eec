// The event stream configuration asks for: JetStream when NATS_URL is set, else in-process;
// namespaced when VOICE_EVENT_NAMESPACE is set; streams kept in VOICE_NATS_REPLICAS copies.
import { createLogger, type Logger } from '../logger.js';
import type { CommonConfig } from '../config/service-config.js';
import type { EventStream } from './event-stream.js';
import { InProcessEventStream } from './in-process.js';
import { JetStreamEventStream } from './jetstream.js';
import { NamespacedEventStream } from './namespaced.js';

export async function openEventStream(
  natsUrl: string | undefined,
  name: string,
  logger: Logger = createLogger({ service: name, level: 'warn' }),
  namespace?: string,
  replicas = 1,
): Promise<EventStream> {
  const stream = natsUrl ? await JetStreamEventStream.connect(natsUrl, name, logger, replicas) : new InProcessEventStream(logger);
  return namespace ? new NamespacedEventStream(stream, namespace) : stream;
}

/** The event stream of a service process, as its common configuration says. */
export const openConfiguredEventStream = (common: Pick<CommonConfig, 'natsUrl' | 'eventNamespace' | 'natsReplicas'>, name: string, logger?: Logger) =>
  openEventStream(common.natsUrl, name, logger, common.eventNamespace, common.natsReplicas);
