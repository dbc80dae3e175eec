// An endpoint's stored form (SQLite's row and MongoDB's document but for the id and the flag's
// and list's types) and its mapping to and from the record.
import type { StoredValues } from '@voice/runtime/store';
import type { EndpointChanges, EndpointRecord, EndpointSecret } from '../store.js';

export interface StoredEndpoint<Flag, List> {
  workspace_id: string;
  url: string;
  description: string;
  event_types: List;
  enabled: Flag;
  /** JSON text in both adapters: sealed secrets with their hints and expiry. */
  secrets: string;
  failing_since: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export const storedEndpoint = <Flag, List>(endpoint: EndpointRecord, values: StoredValues<Flag, List>): StoredEndpoint<Flag, List> => ({
  workspace_id: endpoint.workspaceId,
  url: endpoint.url,
  description: endpoint.description,
  event_types: values.list(endpoint.eventTypes),
  enabled: values.flag(endpoint.enabled),
  secrets: JSON.stringify(endpoint.secrets),
  failing_since: endpoint.failingSince,
  disabled_reason: endpoint.disabledReason,
  created_at: endpoint.createdAt,
  updated_at: endpoint.updatedAt,
});

export const endpointFromStored = <Flag, List>(id: string, stored: StoredEndpoint<Flag, List>, values: StoredValues<Flag, List>): EndpointRecord => ({
  id,
  workspaceId: stored.workspace_id,
  url: stored.url,
  description: stored.description,
  eventTypes: values.items(stored.event_types),
  enabled: values.isSet(stored.enabled),
  secrets: JSON.parse(stored.secrets) as EndpointSecret[],
  failingSince: stored.failing_since,
  disabledReason: stored.disabled_reason,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});

/** The endpoint after an update: enabling one clears its failure clock and the reason it was disabled. */
export function endpointWithChanges(current: EndpointRecord, changes: EndpointChanges, now: string): EndpointRecord {
  const enabling = changes.enabled === true && !current.enabled;
  return {
    ...current,
    url: changes.url ?? current.url,
    description: changes.description ?? current.description,
    eventTypes: changes.eventTypes ?? current.eventTypes,
    enabled: changes.enabled ?? current.enabled,
    secrets: changes.secrets ?? current.secrets,
    failingSince: enabling ? null : current.failingSince,
    disabledReason: enabling ? null : current.disabledReason,
    updatedAt: now,
  };
}
