export { startPlatformUsersService, type PlatformUsersOptions } from './main.js';
export { readPlatformUsersConfig, type PlatformUsersConfig } from './config.js';
export { platformUsersRoutes, platformUsersServiceNames, type PlatformUsersRoutesDeps } from './routes.js';
export { CustomDomainServiceImpl, type CustomDomainDeps } from './service/custom-domains.js';
export { PlatformUserServiceImpl, type PlatformUserDeps } from './service/platform-users.js';
