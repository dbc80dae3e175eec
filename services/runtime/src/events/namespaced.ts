// One NATS server shared by several platforms (test runs, staging beside development) keeps
// them apart by a namespace: every stream, subject and durable name gets its prefix, and
// handlers see the subjects they asked for.
import type { ConsumeOptions, Consumption, EnsureStreamOptions, EventStream, PublishResult } from './event-stream.js';

export const eventNamespacePattern = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The one naming rule for everything a platform keeps on a shared NATS server (streams, durable
 * consumers, key-value buckets): `<namespace>_<name>`, or the name itself without a namespace.
 */
export const namespacedName = (namespace: string | undefined, name: string): string => (namespace ? `${namespace}_${name}` : name);

export class NamespacedEventStream implements EventStream {
  constructor(
    private readonly inner: EventStream,
    private readonly namespace: string,
  ) {
    if (!eventNamespacePattern.test(namespace)) throw new RangeError('an event namespace is 1 to 32 letters, digits, _ or -');
  }

  ensureStream(name: string, subjects: string[], options?: EnsureStreamOptions): Promise<void> {
    return this.inner.ensureStream(this.name(name), subjects.map((subject) => this.subject(subject)), options);
  }

  publish(subject: string, payload: Uint8Array, eventId: string): Promise<PublishResult> {
    return this.inner.publish(this.subject(subject), payload, eventId);
  }

  consume(options: ConsumeOptions): Promise<Consumption> {
    const prefix = `${this.namespace}.`;
    return this.inner.consume({
      ...options,
      stream: this.name(options.stream),
      durable: this.name(options.durable),
      subjects: options.subjects.map((subject) => this.subject(subject)),
      handler: (event) => options.handler({ ...event, subject: event.subject.startsWith(prefix) ? event.subject.slice(prefix.length) : event.subject }),
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private name(name: string): string {
    return namespacedName(this.namespace, name);
  }

  private subject(subject: string): string {
    return `${this.namespace}.${subject}`;
  }
}
