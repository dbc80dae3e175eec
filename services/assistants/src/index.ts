// The assistants service's entry points for the platform and the tests.
export { startAssistantsService, type AssistantsOptions } from './main.js';
export { readAssistantsConfig, type AssistantsConfig } from './config.js';
export { assistantsRoutes, assistantsServiceNames } from './routes.js';
