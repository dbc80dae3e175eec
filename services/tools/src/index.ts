export { startToolsService, type ToolsOptions } from './main.js';
export { readToolsConfig, type ToolsConfig } from './config.js';
export { ToolsServiceImpl, type ToolsDeps } from './service.js';
export { toolsRoutes, toolsServiceNames } from './routes.js';
