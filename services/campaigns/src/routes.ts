// The one registration point of the campaigns service's Connect routes: one service per area.
import type { ConnectRouter } from '@connectrpc/connect';
import { CampaignsService, LeadsService, SegmentsService } from '@voice/proto/voice/campaigns/v1/campaigns';
import { CallbacksService } from '@voice/proto/voice/campaigns/v1/callbacks';
import { Callbacks } from './callbacks/callbacks.js';
import { Campaigns } from './campaigns/campaigns.js';
import type { CampaignsDeps } from './deps.js';
import { Leads } from './leads/leads.js';
import { Segments } from './segments/segments.js';

export const campaignsServiceNames = [CampaignsService.typeName, LeadsService.typeName, SegmentsService.typeName, CallbacksService.typeName];

export const campaignsRoutes = (deps: CampaignsDeps) => (router: ConnectRouter) => {
  router.service(CampaignsService, new Campaigns(deps));
  router.service(LeadsService, new Leads(deps));
  router.service(SegmentsService, new Segments(deps));
  router.service(CallbacksService, new Callbacks(deps));
};
