// The webhooks service's persistence, in its own words: endpoints, the events to send and their
// deliveries (one per event and endpoint), and each workspace's webhook settings. SQLite and
// MongoDB adapters implement it and one contract suite (test/store.contract.ts) holds them to it.
import type { Page } from '@voice/runtime/validation';

/** A signing secret, sealed; the newest first in an endpoint's list. */
export interface EndpointSecret {
  sealed: string;
  hint: string;
  /** When it stops signing; null for the newest. */
  expiresAt: string | null;
}

export interface EndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  secrets: EndpointSecret[];
  failingSince: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
  secrets?: EndpointSecret[];
}

export interface EndpointStore {
  createEndpoint(endpoint: EndpointRecord): Promise<void>;
  getEndpoint(workspaceId: string, id: string): Promise<EndpointRecord | undefined>;
  /** Newest first. */
  listEndpoints(workspaceId: string, page: Page): Promise<{ endpoints: EndpointRecord[]; total: number }>;
  /**
   * Applies the changes. Enabling clears the failure clock and the reason the platform disabled it;
   * disabling fails its pending deliveries. Undefined when there is no such endpoint.
   */
  updateEndpoint(workspaceId: string, id: string, changes: EndpointChanges, now: string): Promise<EndpointRecord | undefined>;
  /** Deletes the endpoint with its deliveries. */
  deleteEndpoint(workspaceId: string, id: string): Promise<boolean>;
  /** The workspace's enabled endpoints that want `eventType`. */
  subscribedEndpoints(workspaceId: string, eventType: string): Promise<EndpointRecord[]>;
}

/** One attempt to send a delivery. */
export interface AttemptRecord {
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: string;
  workspaceId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** Due time of the next attempt while pending (pushed ahead while an attempt holds it); null otherwise. */
  nextAttemptAt: string | null;
  /** A failing attempt after this gives the delivery up. */
  giveUpAt: string;
  createdAt: string;
  deliveredAt: string | null;
}

/** An event as it is sent: the exact body that is signed. */
export interface EventRecord {
  id: string;
  workspaceId: string;
  type: string;
  body: string;
  createdAt: string;
}

/** A delivery an attempt holds, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  body: string;
  endpoint: EndpointRecord;
}

/** What the workspace's owners are told when the platform disabled one of its endpoints. */
export interface OwnerNotice {
  id: string;
  workspaceId: string;
  endpointId: string;
  url: string;
  failingSince: string;
  createdAt: string;
}

/** What an attempt came to. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; nextAttemptAt: string }
  | { kind: 'failed' };

export interface DeliveryStore {
  /**
   * Stores the event and its deliveries in one transaction, unless an event with its id is stored
   * already (a source event that came twice): false then, and nothing changes.
   */
  addEvent(event: EventRecord, deliveries: DeliveryRecord[]): Promise<boolean>;
  getDelivery(workspaceId: string, endpointId: string, id: string): Promise<DeliveryRecord | undefined>;
  /** Newest first. */
  listDeliveries(workspaceId: string, endpointId: string, filter: { status?: DeliveryStatus }, page: Page): Promise<{ deliveries: DeliveryRecord[]; total: number }>;
  /**
   * Takes at most `limit` pending deliveries due at `now`, oldest due first, by moving each one's
   * due time to `heldUntil` (compare-and-set, so each is taken once): an attempt that dies with it
   * leaves it due again then. Deliveries of a disabled endpoint are failed instead.
   */
  claimDue(now: string, heldUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt and its outcome, and the endpoint's failure clock: started by the first
   * failure, cleared by a success.
   */
  recordAttempt(delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<DeliveryRecord>;
  /** Makes a delivery pending and due at `now`, whatever its status; it may be tried until `giveUpAt` at least. */
  retryDelivery(workspaceId: string, endpointId: string, id: string, now: string): Promise<DeliveryRecord | undefined>;
  /**
   * Disables an enabled endpoint for `reason`, fails its pending deliveries and queues the notice to the
   * workspace's owners, in one transaction; undefined when it was not enabled (another attempt got
   * there first, or its owner disabled it).
   */
  disableEndpoint(id: string, reason: string, notice: OwnerNotice): Promise<EndpointRecord | undefined>;
  /** Notices not handed to the mail outbox yet, the oldest first. */
  pendingNotices(limit: number): Promise<OwnerNotice[]>;
  markNoticeSent(id: string, at: string): Promise<void>;
  /** Deletes at most `limit` events created before `before` whose deliveries are all settled, with those deliveries. */
  pruneEvents(before: string, limit: number): Promise<number>;
}

export interface WebhookSettingsRecord {
  workspaceId: string;
  /** Credits in sub-units of 1/10,000; null: no balance.low events. */
  balanceLowThresholdUnits: number | null;
  /** Whether the available credits were below the threshold at the last wallet change seen. */
  balanceLow: boolean;
}

export interface SettingsStore {
  getSettings(workspaceId: string): Promise<WebhookSettingsRecord | undefined>;
  /** Sets the threshold (null clears it) and forgets whether the balance was below the old one. */
  setBalanceLowThreshold(workspaceId: string, units: number | null): Promise<WebhookSettingsRecord>;
  /**
   * Notes that the available credits are below the threshold and stores the balance.low event with
   * its deliveries (none when no endpoint wants it), in one transaction; false (and nothing stored)
   * when they were noted below already.
   */
  markBalanceLow(workspaceId: string, planned?: { event: EventRecord; deliveries: DeliveryRecord[] }): Promise<boolean>;
  /** Notes that the available credits are at or above the threshold again. */
  clearBalanceLow(workspaceId: string): Promise<void>;
}

export interface WebhooksStore extends EndpointStore, DeliveryStore, SettingsStore {
  close(): Promise<void>;
}
