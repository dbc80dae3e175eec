// A segment's stored form (SQLite's row and MongoDB's document but for the id and the filter's
// encoding) and its mapping to and from the record.
import type { SegmentFilter } from '@voice/contracts/campaigns';
import type { SegmentRecord } from '../store.js';
import type { StoredJson } from './json.js';

export interface StoredSegment<Json> {
  workspace_id: string;
  name: string;
  description: string;
  filter: Json;
  revision: number;
  created_at: string;
  updated_at: string;
}

export const storedSegment = <Json>(segment: SegmentRecord, json: StoredJson<Json>): StoredSegment<Json> => ({
  workspace_id: segment.workspaceId,
  name: segment.name,
  description: segment.description,
  filter: json.encode(segment.filter),
  revision: segment.revision,
  created_at: segment.createdAt,
  updated_at: segment.updatedAt,
});

export const segmentFromStored = <Json>(id: string, stored: StoredSegment<Json>, json: StoredJson<Json>): SegmentRecord => ({
  id,
  workspaceId: stored.workspace_id,
  name: stored.name,
  description: stored.description,
  filter: json.decode<SegmentFilter>(stored.filter),
  revision: stored.revision,
  createdAt: stored.created_at,
  updatedAt: stored.updated_at,
});
