// /campaigns/{id}/leads, its bulk import and /leads (issue 17; API.md 10): the people campaigns call,
// each number normalised to E.164 and checked against the workspace's suppression list.
import type { JsonObject } from '@bufbuild/protobuf';
import {
  addLeadBodySchema,
  addLeadsBodySchema,
  bulkLeadsResultSchema,
  leadSchema,
  listCampaignLeadsQuerySchema,
  listLeadsQuerySchema,
  maxBulkLeads,
  type LeadInput,
} from '@voice/contracts/campaigns';
import { dataOf, deletedSchema, listOfSchema } from '@voice/contracts/responses';
import { maxBodyText } from '../middleware/json-body.js';
import type { RestDeps } from './deps.js';
import { presentBulkResults, presentLead } from './campaigns-presenters.js';
import { toolHints } from './operation.js';
import { deletedOf, listOf } from './presenters.js';
import type { RestRouter } from './router.js';
import { pageOf } from './validate.js';

/** A lead of a request body as the proto carries it. */
const leadInputOf = (lead: Omit<LeadInput, 'phone'> & { phone: string }) => ({
  phone: lead.phone,
  name: lead.name,
  variables: lead.variables as JsonObject | undefined,
  timeZone: lead.time_zone,
});

const removalDescription =
  'The lead stays, with status `removed`, its attempts and its call ids (`GET /leads?status=removed`): it is never called again. Removing a removed lead answers the same.';

export function registerLeadRoutes(rest: RestRouter, deps: RestDeps): void {
  const { leads } = deps.clients;

  rest.operation({
    method: 'post',
    path: '/campaigns/:id/leads',
    scope: 'leads:write',
    body: addLeadBodySchema,
    doc: {
      id: 'addLead',
      summary: 'Add a lead to a campaign',
      description:
        'The number is normalised to E.164 (`+1 (415) 555-0100` becomes `+14155550100`); one that is not a valid international number is 400. A number on the workspace’s suppression list (`GET /suppression`) is 403 `destination_forbidden`; one the campaign has already is 409 `conflict`. The lead starts `pending`.',
      toolset: 'campaigns',
      status: 201,
      response: dataOf(leadSchema),
      mcp: { tool: 'add_lead', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await leads.addLead({ campaignId: call.params.id, lead: leadInputOf(call.body) }, call.options);
      return { body: { data: presentLead(answer.lead!) } };
    },
  });

  rest.operation({
    method: 'post',
    path: '/campaigns/:id/leads/bulk',
    scope: 'leads:write',
    body: addLeadsBodySchema,
    doc: {
      id: 'addLeads',
      summary: `Import up to ${maxBulkLeads.toLocaleString('en-US')} leads into a campaign, with an outcome per row`,
      description: `Every row gets an outcome, in the order sent: \`created\`; \`duplicate\` (the campaign has the number already, or an earlier row of this import has it: \`lead_id\` names that lead); \`invalid_number\`; \`suppressed\` (on the workspace’s suppression list: not added). A row that is malformed in any other way (an unknown field, a bad \`time_zone\` or variable) is 400 for the whole import, and nothing is added; so is more than ${maxBulkLeads.toLocaleString('en-US')} rows. The body, like every body, may be at most ${maxBodyText}: split larger imports.`,
      toolset: 'campaigns',
      response: dataOf(bulkLeadsResultSchema),
      mcp: { tool: 'add_leads', annotations: toolHints.create },
    },
    handle: async (call) => {
      const answer = await leads.addLeads({ campaignId: call.params.id, leads: call.body.leads.map(leadInputOf) }, call.options);
      return { body: { data: presentBulkResults(answer.results) } };
    },
  });

  rest.operation({
    method: 'get',
    path: '/leads',
    scope: 'leads:read',
    query: listLeadsQuerySchema,
    doc: {
      id: 'listLeads',
      summary: 'The workspace’s leads, newest first; by campaign, status or segment',
      description: '`segment_id` lists the leads the segment’s filter matches now; a `campaign_id` or `segment_id` that names nothing in the workspace is 404.',
      toolset: 'campaigns',
      response: listOfSchema(leadSchema),
      errors: ['NotFound'],
      mcp: { tool: 'list_leads', annotations: toolHints.read },
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const { status, campaign_id: campaignId, segment_id: segmentId } = call.query;
      const answer = await leads.listLeads({ campaignId: campaignId ?? '', status: status ?? '', segmentId: segmentId ?? '', page }, call.options);
      return { body: listOf(answer.leads.map(presentLead), page, answer.total) };
    },
  });

  rest.operation({
    method: 'get',
    path: '/campaigns/:id/leads',
    scope: 'leads:read',
    query: listCampaignLeadsQuerySchema,
    doc: {
      id: 'listCampaignLeads',
      summary: 'A campaign’s leads, newest first; by status or segment',
      toolset: 'campaigns',
      response: listOfSchema(leadSchema),
    },
    handle: async (call) => {
      const page = pageOf(call.query);
      const { status, segment_id: segmentId } = call.query;
      const answer = await leads.listLeads({ campaignId: call.params.id, status: status ?? '', segmentId: segmentId ?? '', page }, call.options);
      return { body: listOf(answer.leads.map(presentLead), page, answer.total) };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/campaigns/:id/leads/:lead_id',
    scope: 'leads:write',
    doc: {
      id: 'removeLeadFromCampaign',
      summary: 'Remove a lead from a campaign',
      description: removalDescription,
      toolset: 'campaigns',
      response: deletedSchema,
      mcp: { tool: 'remove_lead_from_campaign', annotations: toolHints.remove },
    },
    handle: async (call) => {
      await leads.removeLead({ campaignId: call.params.id, id: call.params.lead_id }, call.options);
      return { body: deletedOf(call.params.lead_id) };
    },
  });

  rest.operation({
    method: 'delete',
    path: '/leads/:id',
    scope: 'leads:write',
    doc: {
      id: 'deleteLead',
      summary: 'Remove a lead (by its id alone)',
      description: removalDescription,
      deprecated: 'the legacy name of `DELETE /campaigns/{id}/leads/{lead_id}` (MCP `remove_lead_from_campaign`), which does the same; use that.',
      toolset: 'campaigns',
      response: deletedSchema,
      mcp: { tool: 'delete_lead', annotations: toolHints.remove },
    },
    handle: async (call) => {
      await leads.removeLead({ campaignId: '', id: call.params.id }, call.options);
      return { body: deletedOf(call.params.id) };
    },
  });
}
