// Tests against the shared NATS server run in their own event namespace and remove its streams
// and key-value buckets afterwards, so runs never see each other's events or counts.
import { connect } from 'nats';

export const testNatsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * Deletes every JetStream stream of `namespace`: its event streams (`<namespace>_NAME`) and its
 * key-value buckets (`<namespace>_bucket`, kept in the stream `KV_<namespace>_bucket`).
 */
export async function deleteNamespaceStreams(namespace: string, natsUrl = testNatsUrl): Promise<void> {
  const admin = await connect({ servers: natsUrl, name: `cleanup-${namespace}` });
  try {
    const manager = await admin.jetstreamManager();
    const prefixes = [`${namespace}_`, `KV_${namespace}_`];
    // Every page listed first: deleting while paging would shift the pages under the lister.
    const names: string[] = [];
    for await (const name of manager.streams.names()) names.push(name);
    for (const name of names) {
      if (prefixes.some((prefix) => name.startsWith(prefix))) await manager.streams.delete(name);
    }
  } finally {
    await admin.close();
  }
}
