export { startCampaignsService, type CampaignsOptions } from './main.js';
export { readCampaignsConfig, type CampaignsConfig } from './config.js';
export { campaignsRoutes, campaignsServiceNames } from './routes.js';
export { startCampaignDialer, type CampaignDialerOptions } from './dialer/worker.js';
