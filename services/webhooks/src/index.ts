export { startWebhooksService, type WebhooksOptions } from './main.js';
export { startWebhookDelivery, type WebhookDeliveryOptions } from './delivery/worker.js';
export { readWebhooksConfig, type WebhooksConfig } from './config.js';
export { WebhooksServiceImpl, type WebhooksDeps } from './service.js';
export { webhooksRoutes, webhooksServiceNames } from './routes.js';
