// Loading a campaign or segment of the caller's workspace by an id from a request: a malformed id, a
// missing one and another workspace's are the same 404.
import type { WorkspaceCaller } from '@voice/runtime/caller';
import { notFound } from '@voice/runtime/errors';
import { isUuid } from '@voice/runtime/ids';
import type { CampaignPart, CampaignRecord, SegmentPart, SegmentRecord } from './store/store.js';

export async function loadCampaign(store: Pick<CampaignPart, 'getCampaign'>, caller: WorkspaceCaller, id: string): Promise<CampaignRecord> {
  const campaign = isUuid(id) ? await store.getCampaign(caller.workspaceId, id) : undefined;
  if (!campaign) throw notFound('campaign');
  return campaign;
}

export async function loadSegment(store: Pick<SegmentPart, 'getSegment'>, caller: WorkspaceCaller, id: string): Promise<SegmentRecord> {
  const segment = isUuid(id) ? await store.getSegment(caller.workspaceId, id) : undefined;
  if (!segment) throw notFound('segment');
  return segment;
}

export const revisionConflict = (what: string, current?: number) =>
  current === undefined
    ? `the ${what} was changed by another request; read it again and retry with its revision`
    : `expected_revision is stale; the ${what} is at revision ${current}`;
