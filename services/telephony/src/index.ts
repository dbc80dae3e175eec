// The telephony service as the platform uses it: how to start it, its routes and what they need.
export { startTelephonyService, type TelephonyOptions } from './main.js';
export { readTelephonyConfig, type TelephonyConfig } from './config.js';
export { telephonyRoutes, telephonyServiceNames } from './routes.js';
export { TelephonyServiceImpl } from './service.js';
export type { TelephonyDeps } from './deps.js';
