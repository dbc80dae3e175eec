// Tests against the shared NATS server run in their own event namespace and remove its streams
// afterwards, so runs never see each other's events.
import { connect } from 'nats';

export const testNatsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Deletes every JetStream stream of `namespace`. */
export async function deleteNamespaceStreams(namespace: string, natsUrl = testNatsUrl): Promise<void> {
  const admin = await connect({ servers: natsUrl, name: `cleanup-${namespace}` });
  try {
    const manager = await admin.jetstreamManager();
    for (const name of await manager.streams.names().next()) {
      if (name.startsWith(`${namespace}_`)) await manager.streams.delete(name);
    }
  } finally {
    await admin.close();
  }
}
