export { startPlatformUsersService, type PlatformUsersOptions } from './main.js';
export { readPlatformUsersConfig, type PlatformUsersConfig } from './config.js';
export { platformUsersRoutes, platformUsersServiceNames, type PlatformUsersRoutesDeps } from './routes.js';
export { CustomDomainServiceImpl, PlatformUserServiceImpl, type CustomDomainDeps, type PlatformUserDeps } from './service.js';
