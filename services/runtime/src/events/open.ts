// The event stream configuration asks for: JetStream when NATS_URL is set, else in-process.
import { createLogger, type Logger } from '../logger.js';
import type { EventStream } from './event-stream.js';
import { InProcessEventStream } from './in-process.js';
import { JetStreamEventStream } from './jetstream.js';

export async function openEventStream(
  natsUrl: string | undefined,
  name: string,
  logger: Logger = createLogger({ service: name, level: 'warn' }),
): Promise<EventStream> {
  return natsUrl ? JetStreamEventStream.connect(natsUrl, name, logger) : new InProcessEventStream(logger);
}
