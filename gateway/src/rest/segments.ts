// /segments (issue 17; API.md 10): saved filters over the workspace's leads that campaigns target.
import { z } from 'zod';
import type { JsonObject } from '@bufbuild/protobuf';
import { createSegmentBodySchema, segmentSchema, updateSegmentBodySchema } from '@voice/contracts/campaigns';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { pageQueryFields } from '@voice/runtime/validation';
import type { RestDeps } from './deps.js';
import { presentSegment } from './campaigns-presenters.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';

export function registerSegmentRoutes(rest: RestRouter, deps: RestDeps): void {
  const { segments } = deps.clients;

  rest.operation({
    method: 'get',
    path: '/segments',
    scope: 'segments:read',
    query: z.strictObject(pageQueryFields),
    doc: { id: 'listSegments', summary: 'The workspace’s segments, newest first', toolset: 'campaigns', response: listOfSchema(segmentSchema) },
    handle: async (call) => {
      const page = pageOf(call.query);
      const answer = await segments.listSegments({ page }, call.options);
      return { body: listOf(answer.segments.map(presentSegment), page, answer.total) };
    },
  });

  rest.operation({
    method: 'post',
    path: '/segments',
    scope: 'segments:write',
    body: createSegmentBodySchema,
    doc: {
      id: 'createSegment',
      summary: 'Save a filter over the workspace’s leads',
      description:
        'Every condition of `filter` must hold for a lead to match (`{}` matches every lead). `GET /leads?segment_id=` lists the matches; a campaign with this `segment_id` gets them as its own leads when it starts. The name is unique in the workspace (409 `conflict`).',
      toolset: 'campaigns',
      status: 201,
      response: dataOf(segmentSchema),
    },
    handle: async (call) => {
      const answer = await segments.createSegment({ body: call.body as unknown as JsonObject }, call.options);
      return { body: { data: presentSegment(answer.segment!) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/segments/:id',
    scope: 'segments:read',
    doc: { id: 'getSegment', summary: 'A segment and its filter', toolset: 'campaigns', response: dataOf(segmentSchema) },
    handle: async (call) => {
      const answer = await segments.getSegment({ id: call.params.id }, call.options);
      return { body: { data: presentSegment(answer.segment!) } };
    },
  });

  rest.operation({
    method: 'patch',
    path: '/segments/:id',
    scope: 'segments:write',
    body: updateSegmentBodySchema,
    doc: {
      id: 'updateSegment',
      summary: 'Change a segment',
      description: 'Fields sent replace the stored ones (`filter` whole). `expected_revision` must be the segment’s current `revision` (409 `revision_conflict` otherwise).',
      toolset: 'campaigns',
      response: dataOf(segmentSchema),
    },
    handle: async (call) => {
      const { expected_revision: expectedRevision, ...changes } = call.body;
      const answer = await segments.updateSegment({ id: call.params.id, expectedRevision, changes: changes as unknown as JsonObject }, call.options);
      return { body: { data: presentSegment(answer.segment!) } };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/segments/:id',
    scope: 'segments:write',
    doc: {
      id: 'deleteSegment',
      summary: 'Delete a segment',
      description: 'A segment a campaign targets is 409 `conflict`: change the campaign’s `segment_id` (or delete it) first. Leads are not touched.',
      toolset: 'campaigns',
      response: deletedSchema,
    },
    handle: async (call) => {
      await segments.deleteSegment({ id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });
}
