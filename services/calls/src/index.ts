export { startCallsService, type CallsOptions } from './main.js';
export { readCallsConfig, type CallsConfig } from './config.js';
export { callsRoutes, callsServiceNames } from './routes.js';
