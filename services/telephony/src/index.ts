export { startTelephonyService, type TelephonyOptions } from './main.js';
export { readTelephonyConfig, type TelephonyConfig } from './config.js';
export { telephonyRoutes, telephonyServiceNames, telephonyService } from './routes.js';
export type { TelephonyDeps } from './service/deps.js';
