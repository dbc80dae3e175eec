// Broadcast notices between parts of the platform (for example "these credentials are
// revoked"): every subscriber in every process gets each notice. Not durable: a process that is
// down misses them, which suits cache invalidation and nothing that must never be lost.
import type { NatsConnection } from 'nats';
import { connectNats } from './connection.js';

export type NoticeHandler = (payload: Uint8Array) => void | Promise<void>;

export interface Notifier {
  /** Resolves once the notice has reached every local subscriber and, with NATS, the server. */
  publish(subject: string, payload: Uint8Array): Promise<void>;
  subscribe(subject: string, handler: NoticeHandler): () => void;
  close(): Promise<void>;
}

export class InProcessNotifier implements Notifier {
  private readonly handlers = new Map<string, Set<NoticeHandler>>();

  async publish(subject: string, payload: Uint8Array): Promise<void> {
    await Promise.all([...(this.handlers.get(subject) ?? [])].map((handler) => handler(payload)));
  }

  subscribe(subject: string, handler: NoticeHandler): () => void {
    const set = this.handlers.get(subject) ?? new Set();
    set.add(handler);
    this.handlers.set(subject, set);
    return () => set.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}

export class NatsNotifier implements Notifier {
  private constructor(private readonly connection: NatsConnection) {}

  static async connect(url: string, name: string): Promise<NatsNotifier> {
    return new NatsNotifier(await connectNats(url, name));
  }

  async publish(subject: string, payload: Uint8Array): Promise<void> {
    this.connection.publish(subject, payload);
    await this.connection.flush();
  }

  subscribe(subject: string, handler: NoticeHandler): () => void {
    const subscription = this.connection.subscribe(subject, {
      callback: (error, message) => {
        if (error) return;
        // A handler's failure must not reach the client: a throw here closes the connection's
        // reader (no further notices), and a rejection would be unhandled.
        try {
          void Promise.resolve(handler(message.data)).catch(() => undefined);
        } catch {
          // Handlers report their own failures; the subscription carries on.
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }
}

/** The notifier configuration asks for: NATS when NATS_URL is set, else in-process. */
export async function openNotifier(natsUrl: string | undefined, name: string): Promise<Notifier> {
  return natsUrl ? NatsNotifier.connect(natsUrl, name) : new InProcessNotifier();
}
