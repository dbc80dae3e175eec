export { startIdentityService, type StartedIdentity, type IdentityOptions } from './main.js';
export { readIdentityConfig, type IdentityConfig } from './config.js';
export { passwordHashCost } from './users/passwords.js';
export { IdentityServiceImpl, type IdentityDeps } from './service.js';
export { redirectUriTrustedField } from './oauth/errors.js';
export { guardedMetadataFetcher, MetadataUnavailable, type ClientMetadataFetcher } from './oauth/metadata-fetch.js';
export { platformClientId } from './oauth/platform-client.js';
