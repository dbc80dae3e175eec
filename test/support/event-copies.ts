// Publishes an event as the platform's own producers would, in either topology: through the single
// process's event stream, or to the cluster's NATS in its event namespace. Tests use it to deliver a
// copy of an event (what JetStream does after a consumer died before its ack).
import { newId } from '@voice/runtime/ids';
import { openEventStream } from '@voice/runtime/events';
import { inProcess, topology, type TestPlatform } from './platform.js';

export async function publishEventCopy(platform: TestPlatform, subject: string, payload: Uint8Array): Promise<void> {
  if (topology !== 'cluster') {
    await inProcess(platform).events.publish(subject, payload, newId());
    return;
  }
  const stream = await openEventStream(platform.env.NATS_URL, 'e2e-event-copies', undefined, platform.env.VOICE_EVENT_NAMESPACE);
  try {
    await stream.publish(subject, payload, newId());
  } finally {
    await stream.close();
  }
}
