// The one registration point of the tools service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import { ToolsServiceImpl, type ToolsDeps } from './service.js';

export const toolsServiceNames = [ToolsService.typeName];

export const toolsRoutes = (deps: ToolsDeps) => (router: ConnectRouter) => {
  router.service(ToolsService, new ToolsServiceImpl(deps));
};
