export { startIdentityService, type StartedIdentity, type IdentityOptions } from './main.js';
export { readIdentityConfig, type IdentityConfig } from './config.js';
export { IdentityServiceImpl, type IdentityDeps } from './service.js';
