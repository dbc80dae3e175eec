// The SegmentsService: saved filters over the workspace's leads, names unique in the workspace,
// revision-checked updates, and no deletion while a campaign targets the segment.
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { workspaceCallerOf } from '@voice/runtime/caller';
import { invalidRequest, notFound, serviceError } from '@voice/runtime/errors';
import { newId } from '@voice/runtime/ids';
import { normalisePage, validate } from '@voice/runtime/validation';
import type {
  CreateSegmentRequest,
  DeleteSegmentRequest,
  GetSegmentRequest,
  ListSegmentsRequest,
  SegmentsService,
  UpdateSegmentRequest,
} from '@voice/proto/voice/campaigns/v1/campaigns';
import { createSegmentBodySchema, updateSegmentBodySchema } from '@voice/contracts/campaigns';
import type { CampaignsDeps } from '../deps.js';
import { loadSegment, revisionConflict } from '../lookups.js';
import { presentSegment } from '../presenter.js';
import type { SegmentRecord } from '../store/store.js';

const nameTaken = (name: string) => serviceError('conflict', `a segment named "${name}" already exists in this workspace`);

export class Segments implements ServiceImpl<typeof SegmentsService> {
  constructor(private readonly deps: CampaignsDeps) {}

  async createSegment(request: CreateSegmentRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(createSegmentBodySchema, request.body ?? {});
    if (!input.ok) throw invalidRequest(input.issues);
    const at = this.deps.now().toISOString();
    const segment: SegmentRecord = {
      id: newId(),
      workspaceId: caller.workspaceId,
      name: input.value.name,
      description: input.value.description ?? '',
      filter: input.value.filter,
      revision: 1,
      createdAt: at,
      updatedAt: at,
    };
    if ((await this.deps.store.insertSegment(segment)) === 'name_taken') throw nameTaken(segment.name);
    return { segment: presentSegment(segment) };
  }

  async getSegment(request: GetSegmentRequest, context: HandlerContext) {
    return { segment: presentSegment(await loadSegment(this.deps.store, workspaceCallerOf(context), request.id)) };
  }

  async listSegments(request: ListSegmentsRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const { segments, total } = await this.deps.store.listSegments(caller.workspaceId, normalisePage(request.page));
    return { segments: segments.map(presentSegment), total };
  }

  async updateSegment(request: UpdateSegmentRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const input = validate(updateSegmentBodySchema, { ...(request.changes ?? {}), expected_revision: request.expectedRevision || undefined });
    if (!input.ok) throw invalidRequest(input.issues);
    const { expected_revision: expectedRevision, ...changes } = input.value;
    const current = await loadSegment(this.deps.store, caller, request.id);
    if (expectedRevision !== current.revision) throw serviceError('revision_conflict', revisionConflict('segment', current.revision));
    const outcome = await this.deps.store.updateSegment(caller.workspaceId, current.id, expectedRevision, changes, this.deps.now().toISOString());
    switch (outcome.kind) {
      case 'updated':
        return { segment: presentSegment(outcome.record) };
      case 'not_found':
        throw notFound('segment');
      case 'revision_conflict':
        throw serviceError('revision_conflict', revisionConflict('segment'));
      case 'name_taken':
        throw nameTaken(changes.name ?? current.name);
    }
  }

  async deleteSegment(request: DeleteSegmentRequest, context: HandlerContext) {
    const caller = workspaceCallerOf(context);
    const segment = await loadSegment(this.deps.store, caller, request.id);
    const outcome = await this.deps.store.deleteSegment(caller.workspaceId, segment.id);
    if (outcome === 'not_found') throw notFound('segment');
    if (outcome === 'in_use') throw serviceError('conflict', 'a campaign targets this segment; point it elsewhere (or delete it) first');
    return {};
  }
}
