export { startPlatformUsersService } from './main.js';
export { readPlatformUsersConfig, type PlatformUsersConfig } from './config.js';
export { platformUsersRoutes, platformUsersServiceNames } from './routes.js';
export { CustomDomainServiceImpl, type CustomDomainDeps } from './service/custom-domains.js';
