// The event stream configuration asks for: JetStream when NATS_URL is set, else in-process;
// namespaced when VOICE_EVENT_NAMESPACE is set.
import { createLogger, type Logger } from '../logger.js';
import type { EventStream } from './event-stream.js';
import { InProcessEventStream } from './in-process.js';
import { JetStreamEventStream } from './jetstream.js';
import { NamespacedEventStream } from './namespaced.js';

export async function openEventStream(
  natsUrl: string | undefined,
  name: string,
  logger: Logger = createLogger({ service: name, level: 'warn' }),
  namespace?: string,
): Promise<EventStream> {
  const stream = natsUrl ? await JetStreamEventStream.connect(natsUrl, name, logger) : new InProcessEventStream(logger);
  return namespace ? new NamespacedEventStream(stream, namespace) : stream;
}
