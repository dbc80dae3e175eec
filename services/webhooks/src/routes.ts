// The one registration point of the webhooks service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { WebhooksService } from '@voice/proto/voice/webhooks/v1/webhooks';
import { WebhooksServiceImpl, type WebhooksDeps } from './service.js';

export const webhooksServiceNames = [WebhooksService.typeName];

export const webhooksRoutes = (deps: WebhooksDeps) => (router: ConnectRouter) => {
  router.service(WebhooksService, new WebhooksServiceImpl(deps));
};
