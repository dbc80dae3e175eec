// What an outbox holds and what the relay needs from one, whichever database keeps it.

/** An event the producer has committed and the relay still has to publish. */
export interface OutboxEvent {
  id: string;
  subject: string;
  payload: Uint8Array;
  createdAt: string;
}

/** The event a producer adds to its outbox in the transaction of its business write. */
export interface NewOutboxEvent {
  id: string;
  subject: string;
  payload: Uint8Array;
}

export interface OutboxReader {
  /** Unpublished events, oldest first. */
  pending(limit: number): Promise<OutboxEvent[]>;
  markPublished(ids: string[], at: string): Promise<void>;
}

/** A service's own outbox: the relay's view, and what its pruning job deletes. */
export interface PrunableOutbox extends OutboxReader {
  /** Deletes at most `limit` events published before `publishedBefore`, the oldest first; answers how many. */
  prune(publishedBefore: string, limit: number): Promise<number>;
}
